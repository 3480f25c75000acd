#include "2_one_launch_update.cuh"

namespace step2
{
  // Three launches per diagonal tile instead of four, and the third covers the whole
  // trailing matrix at once: below × below blocks, half of which return at once.
  template <typename T>
  void factorize_2_one_launch_update(const CholeskyArgs<T> &args)
  {
    // @exercise{one_launch_driver, 1}
    // Launch shapes: the host loop of variant 2. Clear the info flag on the stream
    // `args.stream`, then for each diagonal tile k of the ceil(n / tile_2011) tiles
    // launch, on that stream and each followed by `LAB_CHECK_LAUNCH()`: the diagonal
    // factorisation `factorize_diagonal_tile<T, tile_2011>` as one block; unless k is
    // the last tile, `strip_update_2011` with one block per tile below k; and
    // `trailing_update_one_launch` over a below x below grid. Every block has
    // `tile_2011` x `tile_2011` threads.
    const int tiles = ceil_div(args.n, tile_2011);
    const dim3 threads(tile_2011, tile_2011);
    cudaStream_t s = args.stream;
    clear_info(args.info, s);
    for (int k = 0; k < tiles; ++k)
      {
        const int below = tiles - k - 1;
        factorize_diagonal_tile<T, tile_2011><<<1, threads, 0, s>>>(args.a, args.n, args.ld, k, args.info, 0);
        LAB_CHECK_LAUNCH();
        if (below == 0)
          break;
        strip_update_2011<T><<<below, threads, 0, s>>>(args.a, args.n, args.ld, k, args.info);
        LAB_CHECK_LAUNCH();
        trailing_update_one_launch<T><<<dim3(below, below), threads, 0, s>>>(args.a, args.n, args.ld, k, args.info);
        LAB_CHECK_LAUNCH();
      }
    // @end-exercise
  }

  template void factorize_2_one_launch_update(const CholeskyArgs<float> &);
  template void factorize_2_one_launch_update(const CholeskyArgs<double> &);
} // namespace step2
