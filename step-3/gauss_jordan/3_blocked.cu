#include "gauss_jordan/3_blocked.cuh"
#include "gauss_jordan/2_partial_pivoting.cuh"

#include <algorithm>

namespace step3
{
  using step2::ceil_div;
  using step2::failed_before;

  // Where variant 3's own parts of the workspace start.
  LAB_HOST_DEVICE constexpr std::size_t pivots_offset(int n) { return row_operations_workspace(n); }
  LAB_HOST_DEVICE constexpr std::size_t order_offset(int n) { return pivots_offset(n) + n; }
  LAB_HOST_DEVICE constexpr std::size_t saved_rows_offset(int n) { return order_offset(n) + n; }

  std::size_t blocked_workspace(int n)
  {
    return saved_rows_offset(n) + static_cast<std::size_t>(blocked_panel) * n;
  }

  // @sect3{The panel's kernels}
  //
  // The three kernels of variants 1 and 2, for the in-place form. The swap exchanges
  // rows k and p across all n columns (one thread per column) and records p, for the
  // gather at the end.
  template <typename T>
  __global__ void swap_whole_rows(T *a, int n, int lda, int k, T *w, const int *info)
  {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (failed_before(info) || c >= n)
      return;
    const int p = static_cast<int>(w[pivot_row_slot]);
    if (c == 0)
      w[pivots_offset(n) + k] = T(p);
    if (p == k)
      return;
    T &in_k = a[static_cast<long>(k) * lda + c], &in_p = a[static_cast<long>(p) * lda + c];
    const T kept = in_k;
    in_k = in_p;
    in_p = kept;
  }

  // Threads 0 ... n-1 copy the multipliers A(i, k) aside, threads n ... n+b-1 divide
  // row k's entries in the panel, columns k0 ... k0+b-1, by the pivot; A(k, k) becomes
  // 1/pivot, what the division makes of e_k's 1.
  template <typename T>
  __global__ void normalise_panel_row(T *a, int n, int lda, int k, int k0, int b, T *w, const int *info)
  {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (failed_before(info) || t >= n + b)
      return;
    const T pivot = w[pivot_value_slot];
    if (t < n)
      {
        if (t != k)
          w[multipliers_slot + t] = a[static_cast<long>(t) * lda + k];
      }
    else
      {
        const int c = k0 + (t - n);
        T &entry = a[static_cast<long>(k) * lda + c];
        entry = c == k ? T(1) / pivot : entry / pivot;
      }
  }

  // Every row i != k of the panel loses A(i, k) times row k; column k, which stands for
  // e_k, counts as 0 before the subtraction. Consecutive threads on consecutive
  // columns of a row, as in variants 1 and 2.
  template <typename T>
  __global__ void eliminate_in_panel(T *a, int n, int lda, int k, int k0, int b, const T *w, const int *info)
  {
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (failed_before(info) || i >= n || i == k || j >= b)
      return;
    const int c = k0 + j;
    T &entry = a[static_cast<long>(i) * lda + c];
    entry = (c == k ? T(0) : entry) - w[multipliers_slot + i] * a[static_cast<long>(k) * lda + c];
  }

  // @sect3{The gather}
  //
  // σ(c) for every column c: thread c follows its column through the n swaps, which
  // every thread reads in the same order (one broadcast per swap).
  template <typename T>
  __global__ void trace_swaps(int n, T *w, const int *info)
  {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (failed_before(info) || c >= n)
      return;
    const T *pivots = w + pivots_offset(n);
    int at = c;
    for (int j = 0; j < n; ++j)
      {
        const int p = static_cast<int>(pivots[j]);
        if (at == j)
          at = p;
        else if (at == p)
          at = j;
      }
    w[order_offset(n) + c] = T(at);
  }

  // X(r, c) = T(r, σ(c)): consecutive threads write consecutive entries of a row of X.
  template <typename T>
  __global__ void gather_columns(const T *a, int n, int lda, T *x, int ldx, const T *w, const int *info)
  {
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (failed_before(info) || r >= n || c >= n)
      return;
    const int from = static_cast<int>(w[order_offset(n) + c]);
    x[static_cast<long>(r) * ldx + c] = a[static_cast<long>(r) * lda + from];
  }

  // @sect3{The host side}
  //
  // The update of the columns outside the panel, C += G C_K with C_K saved and zeroed
  // first, for the @p count columns starting at @p first.
  template <typename T>
  void update_columns(const GaussJordanArgs<T> &g, int k0, int b, int first, int count)
  {
    if (count == 0)
      return;
    const T *saved = g.workspace + saved_rows_offset(g.n);
    LAB_CHECK(cudaMemset2DAsync(g.a + static_cast<long>(k0) * g.lda + first, g.lda * sizeof(T), 0,
                                count * sizeof(T), b, g.stream));
    lab::GemmArgs<T> p;
    p.shape = {g.n, count, b, lab::Op::none, lab::Op::none};
    p.alpha = 1;
    p.beta = 1;
    p.a = g.a + k0;
    p.lda = g.lda;
    p.b = saved + first;
    p.ldb = g.n;
    p.c = g.a + first;
    p.ldc = g.lda;
    g.gemm(p, g.stream);
  }

  template <typename T>
  void invert_3_blocked(const GaussJordanArgs<T> &g)
  {
    const int n = g.n;
    cudaStream_t s = g.stream;
    constexpr int threads = 256;
    const dim3 block(32, 8);
    step2::clear_info(g.info, s);
    find_scale(g);
    for (int k0 = 0; k0 < n; k0 += blocked_panel)
      {
        const int b = std::min(blocked_panel, n - k0);
        for (int k = k0; k < k0 + b; ++k)
          {
            choose_largest_pivot(g, k);
            swap_whole_rows<<<ceil_div(n, threads), threads, 0, s>>>(g.a, n, g.lda, k, g.workspace, g.info);
            LAB_CHECK_LAUNCH();
            normalise_panel_row<<<ceil_div(n + b, threads), threads, 0, s>>>(g.a, n, g.lda, k, k0, b, g.workspace,
                                                                             g.info);
            LAB_CHECK_LAUNCH();
            eliminate_in_panel<<<dim3(ceil_div(b, 32), ceil_div(n, 8)), block, 0, s>>>(g.a, n, g.lda, k, k0, b,
                                                                                       g.workspace, g.info);
            LAB_CHECK_LAUNCH();
          }
        // C_K, the panel's rows of every column (those of the panel itself are not
        // used), saved before the products overwrite them.
        LAB_CHECK(cudaMemcpy2DAsync(g.workspace + saved_rows_offset(n), n * sizeof(T),
                                    g.a + static_cast<long>(k0) * g.lda, g.lda * sizeof(T), n * sizeof(T), b,
                                    cudaMemcpyDeviceToDevice, s));
        update_columns(g, k0, b, 0, k0);
        update_columns(g, k0, b, k0 + b, n - k0 - b);
      }
    trace_swaps<<<ceil_div(n, threads), threads, 0, s>>>(n, g.workspace, g.info);
    LAB_CHECK_LAUNCH();
    gather_columns<<<dim3(ceil_div(n, 32), ceil_div(n, 8)), block, 0, s>>>(g.a, n, g.lda, g.x, g.ldx, g.workspace,
                                                                           g.info);
    LAB_CHECK_LAUNCH();
    erase_if_singular(g.x, n, g.ldx, g.info, s);
  }

  template void invert_3_blocked(const GaussJordanArgs<float> &);
  template void invert_3_blocked(const GaussJordanArgs<double> &);
} // namespace step3
