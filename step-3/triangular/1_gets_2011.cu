#include "triangular/1_gets_2011.cuh"
#include "triangular/identity_and_singular_checks.cuh"

#include <variants/tiles.cuh> // step-2: ceil_div

namespace step3
{
  using step2::ceil_div;

  // Step 1 for pivot k: X(k, 0:k] /= L(k, k).
  template <typename T>
  __global__ void divide_pivot_row(const T *l, int ld, T *x, int ldx, int k)
  {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c <= k)
      x[static_cast<long>(k) * ldx + c] /= l[static_cast<long>(k) * ld + k];
  }

  // Step 2 for pivot k: X(i, c) -= L(i, k) X(k, c) for k < i < n, c <= k. The thesis'
  // geometry: one column c per row of the grid (blockIdx.y), and linear blocks of
  // threads running down that column, rows k + 1 ... n - 1.
  template <typename T>
  __global__ void eliminate_below_pivot(const T *l, int n, int ld, T *x, int ldx, int k)
  {
    const int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    const int c = blockIdx.y;
    if (i < n)
      x[static_cast<long>(i) * ldx + c] -= l[static_cast<long>(i) * ld + k] * x[static_cast<long>(k) * ldx + c];
  }

  template <typename T>
  void invert_1_gets_2011(const InverseArgs<T> &args)
  {
    const int n = args.n;
    check_diagonal(args.l, n, args.ld, args.info, args.stream);
    set_to_identity(args.x, n, args.ldx, args.stream);
    constexpr int threads = 256;
    for (int k = 0; k < n; ++k)
      {
        divide_pivot_row<<<ceil_div(k + 1, 256), 256, 0, args.stream>>>(args.l, args.ld, args.x, args.ldx, k);
        LAB_CHECK_LAUNCH();
        if (k + 1 == n)
          break;
        const dim3 blocks(ceil_div(n - k - 1, threads), k + 1);
        eliminate_below_pivot<<<blocks, threads, 0, args.stream>>>(args.l, n, args.ld, args.x, args.ldx, k);
        LAB_CHECK_LAUNCH();
      }
    erase_if_singular(args.x, n, args.ldx, args.info, args.stream);
  }

  template void invert_1_gets_2011(const InverseArgs<float> &);
  template void invert_1_gets_2011(const InverseArgs<double> &);
} // namespace step3
