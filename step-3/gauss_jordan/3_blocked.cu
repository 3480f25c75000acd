#include "gauss_jordan/3_blocked.cuh"
#include "gauss_jordan/2_partial_pivoting.cuh"

#include <algorithm>

namespace step3
{
  using step2::ceil_div;
  using step2::failed_before;

  // The workspace: max|A| where variant 2 keeps it, then the pivot rows (n), the
  // column order of the result (n) and the saved rows C_K (128 × n).
  LAB_HOST_DEVICE constexpr std::size_t pivots_offset(int) { return scale_slot + 1; }
  LAB_HOST_DEVICE constexpr std::size_t order_offset(int n) { return pivots_offset(n) + n; }
  LAB_HOST_DEVICE constexpr std::size_t saved_rows_offset(int n) { return order_offset(n) + n; }

  std::size_t blocked_workspace(int n)
  {
    return saved_rows_offset(n) + static_cast<std::size_t>(blocked_panel) * n;
  }

  // @sect3{The panel: two launches per column}
  //
  // The first is one block, for everything that depends on the whole of column k: the
  // search for the pivot (the reduction of variant 2), the swap of rows k and p across
  // all n columns, and the division of row k's entries in the panel by the pivot
  // (A(k, k) becomes 1/pivot, what the division makes of e_k's 1). Inside one block,
  // __syncthreads orders the three steps: every thread has read the pivot before the
  // swap moves it, and the swap is complete before row k is divided.
  template <typename T>
  __global__ void __launch_bounds__(pivot_threads)
    pivot_swap_divide(T *a, int n, int lda, int k, int k0, int b, T tiny, T *w, int *info)
  {
    if (failed_before(info))
      return;
    T largest;
    const int p = largest_in_column(a, n, lda, k, largest);
    if (!(largest > tiny * w[scale_slot]))
      {
        if (threadIdx.x == 0)
          *info = k + 1;
        return;
      }
    const T pivot = a[static_cast<long>(p) * lda + k];
    if (threadIdx.x == 0)
      w[pivots_offset(n) + k] = T(p);
    __syncthreads();
    if (p != k)
      for (int c = threadIdx.x; c < n; c += pivot_threads)
        {
          T &in_k = a[static_cast<long>(k) * lda + c], &in_p = a[static_cast<long>(p) * lda + c];
          const T kept = in_k;
          in_k = in_p;
          in_p = kept;
        }
    __syncthreads();
    for (int c = k0 + threadIdx.x; c < k0 + b; c += pivot_threads)
      {
        T &entry = a[static_cast<long>(k) * lda + c];
        entry = c == k ? T(1) / pivot : entry / pivot;
      }
  }

  // The second clears column k from every other row of the panel: row i loses A(i, k)
  // times row k, and column k, which stands for e_k, counts as 0 before the
  // subtraction. A block holds whole rows of the panel (128 threads along a row, two
  // rows), so the multiplier A(i, k) needs no copy: every thread of row i reads it,
  // and after a __syncthreads the thread of column k may overwrite it. Row k, divided
  // by the first launch, is only read.
  constexpr int panel_rows_per_block = 2;

  template <typename T>
  __global__ void eliminate_in_panel(T *a, int n, int lda, int k, int k0, int b, const int *info)
  {
    if (failed_before(info))
      return;
    const int i = blockIdx.x * panel_rows_per_block + threadIdx.y;
    const int c = k0 + threadIdx.x;
    const bool row_to_clear = i < n && i != k;
    const T multiplier = row_to_clear ? a[static_cast<long>(i) * lda + k] : T(0);
    __syncthreads();
    if (row_to_clear && c < k0 + b)
      {
        T &entry = a[static_cast<long>(i) * lda + c];
        entry = (c == k ? T(0) : entry) - multiplier * a[static_cast<long>(k) * lda + c];
      }
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
    step2::clear_info(g.info, s);
    find_scale(g);
    const dim3 panel_block(blocked_panel, panel_rows_per_block);
    for (int k0 = 0; k0 < n; k0 += blocked_panel)
      {
        const int b = std::min(blocked_panel, n - k0);
        for (int k = k0; k < k0 + b; ++k)
          {
            pivot_swap_divide<<<1, pivot_threads, 0, s>>>(g.a, n, g.lda, k, k0, b, negligible<T>(n), g.workspace,
                                                          g.info);
            LAB_CHECK_LAUNCH();
            eliminate_in_panel<<<ceil_div(n, panel_rows_per_block), panel_block, 0, s>>>(g.a, n, g.lda, k, k0, b,
                                                                                        g.info);
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
    constexpr int threads = 256;
    const dim3 block(32, 8);
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
