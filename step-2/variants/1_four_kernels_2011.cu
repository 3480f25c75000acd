#include "1_four_kernels_2011.cuh"

#include <lab/timer.h>

namespace step2
{
  namespace
  {
    // Runs one launch, and adds its GPU time to @p total when timing is asked for (two
    // events around it; they cost a little, so the untimed runs leave them out).
    template <typename Launch>
    void run_timed(KernelTimes *times, double KernelTimes::*which, cudaStream_t stream,
                   Launch launch)
    {
      if (!times)
        {
          launch();
          return;
        }
      lab::EventTimer timer;
      timer.start(stream);
      launch();
      timer.stop(stream);
      times->*which += timer.milliseconds();
    }
  } // namespace

  // The host loop: for every diagonal tile, the four launches. A launch grid cannot be
  // empty, so the last tiles skip the launches that have no tiles to work on.
  template <typename T>
  void factorize_1_four_kernels_2011(const CholeskyArgs<T> &args)
  {
    const int tiles = ceil_div(args.n, tile_2011);
    const dim3 threads(tile_2011, tile_2011);
    cudaStream_t s = args.stream;
    KernelTimes *times = args.kernel_times;
    clear_info(args.info, s);
    for (int k = 0; k < tiles; ++k)
      {
        const int below = tiles - k - 1;
        run_timed(times, &KernelTimes::factorize_diagonal_block_ms, s, [&] {
          factorize_diagonal_tile<T, tile_2011><<<1, threads, 0, s>>>(args.a, args.n, args.ld, k, args.info, 0);
        });
        LAB_CHECK_LAUNCH();
        if (below == 0)
          break;
        run_timed(times, &KernelTimes::strip_update_ms, s, [&] {
          strip_update_2011<T><<<below, threads, 0, s>>>(args.a, args.n, args.ld, k, args.info);
        });
        LAB_CHECK_LAUNCH();
        run_timed(times, &KernelTimes::diag_update_ms, s, [&] {
          diag_update_2011<T><<<below, threads, 0, s>>>(args.a, args.n, args.ld, k, args.info);
        });
        LAB_CHECK_LAUNCH();
        if (below > 1)
          {
            run_timed(times, &KernelTimes::lo_update_ms, s, [&] {
              lo_update_2011<T><<<dim3(1, below - 1), threads, 0, s>>>(args.a, args.n, args.ld, k,
                                                                        tiles, args.info);
            });
            LAB_CHECK_LAUNCH();
          }
      }
  }

  template void factorize_1_four_kernels_2011(const CholeskyArgs<float> &);
  template void factorize_1_four_kernels_2011(const CholeskyArgs<double> &);
} // namespace step2
