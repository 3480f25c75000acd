#include "3_register_blocked_update.cuh"

namespace step2
{
  template <typename T>
  void factorize_tiles_64(T *a, int n, int ld, int *info, int column_offset, cudaStream_t s)
  {
    const int tiles = ceil_div(n, tile_64);
    const dim3 threads(16, 16);
    for (int k = 0; k < tiles; ++k)
      {
        const int below = tiles - k - 1;
        factorize_diagonal_tile<T, tile_64><<<1, threads, 0, s>>>(a, n, ld, k, info, column_offset);
        LAB_CHECK_LAUNCH();
        if (below == 0)
          break;
        launch_solve_below_diagonal<T, tile_64>(a, n, ld, k, below, info, s);
        trailing_update_register_blocked<T><<<below * (below + 1) / 2, threads, 0, s>>>(a, n, ld, k, info);
        LAB_CHECK_LAUNCH();
      }
  }

  template <typename T>
  void factorize_3_register_blocked_update(const CholeskyArgs<T> &args)
  {
    clear_info(args.info, args.stream);
    factorize_tiles_64(args.a, args.n, args.ld, args.info, 0, args.stream);
  }

  template void factorize_tiles_64(float *, int, int, int *, int, cudaStream_t);
  template void factorize_tiles_64(double *, int, int, int *, int, cudaStream_t);
  template void factorize_3_register_blocked_update(const CholeskyArgs<float> &);
  template void factorize_3_register_blocked_update(const CholeskyArgs<double> &);
} // namespace step2
