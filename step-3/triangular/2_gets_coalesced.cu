#include "triangular/2_gets_coalesced.cuh"
#include "triangular/identity_and_singular_checks.cuh"

#include <variants/tiles.cuh> // step-2: ceil_div

#include <algorithm>

namespace step3
{
  using step2::ceil_div;

  // Pivot k: entry t of the (n - k - 1) × (k + 1) block below row k, numbered by rows.
  template <typename T>
  __global__ void eliminate_by_rows(const T *l, int n, int ld, T *x, int ldx, int k)
  {
    // @exercise{gets_eliminate, 2}
    // One race-free, coalesced step of GETS. For pivot k, subtract from every row i
    // below k the multiple L(i, k) / L(k, k) of row k of x, over the columns
    // c = 0 .. k: x(i, c) -= (L(i, k) / L(k, k)) x(k, c). Number the (n - k - 1) x
    // (k + 1) entries by rows and let each thread take entries in a grid-stride loop,
    // so that a warp touches neighbouring entries of a row; the grid may be smaller
    // than the work. Row k itself stays undivided: it is only read in this launch,
    // which is what makes it free of races.
    const long width = k + 1, entries = (n - k - 1) * width;
    const T pivot = l[static_cast<long>(k) * ld + k];
    for (long t = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; t < entries;
         t += static_cast<long>(gridDim.x) * blockDim.x)
      {
        const long i = k + 1 + t / width, c = t % width;
        const T multiplier = l[i * ld + k] / pivot;
        x[i * ldx + c] -= multiplier * x[static_cast<long>(k) * ldx + c];
      }
    // @end-exercise
  }

  // At the end: X(i, c) /= L(i, i) for c <= i, every row at once.
  template <typename T>
  __global__ void divide_rows_by_pivots(const T *l, int n, int ld, T *x, int ldx)
  {
    // @exercise{gets_divide_rows, 1}
    // A 2-D grid over a matrix, and the division GETS postponed to its end. The
    // thread at row i = blockIdx.y * blockDim.y + threadIdx.y and column c =
    // blockIdx.x * blockDim.x + threadIdx.x divides x(i, c) by the pivot L(i, i),
    // for every entry on or below the diagonal (c <= i) of the n x n matrix x; the
    // grid covers the matrix with whole blocks, so threads outside it do nothing.
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && c <= i)
      x[static_cast<long>(i) * ldx + c] /= l[static_cast<long>(i) * ld + i];
    // @end-exercise
  }

  template <typename T>
  void invert_2_gets_coalesced(const InverseArgs<T> &args)
  {
    const int n = args.n;
    check_diagonal(args.l, n, args.ld, args.info, args.stream);
    set_to_identity(args.x, n, args.ldx, args.stream);
    constexpr int threads = 256, most_blocks = 4096;
    for (int k = 0; k + 1 < n; ++k)
      {
        const long entries = static_cast<long>(n - k - 1) * (k + 1);
        const int blocks = static_cast<int>(std::min<long>(most_blocks, (entries + threads - 1) / threads));
        eliminate_by_rows<<<blocks, threads, 0, args.stream>>>(args.l, n, args.ld, args.x, args.ldx, k);
        LAB_CHECK_LAUNCH();
      }
    const dim3 block(32, 8), grid(ceil_div(n, 32), ceil_div(n, 8));
    divide_rows_by_pivots<<<grid, block, 0, args.stream>>>(args.l, n, args.ld, args.x, args.ldx);
    LAB_CHECK_LAUNCH();
    erase_if_singular(args.x, n, args.ldx, args.info, args.stream);
  }

  template void invert_2_gets_coalesced(const InverseArgs<float> &);
  template void invert_2_gets_coalesced(const InverseArgs<double> &);
} // namespace step3
