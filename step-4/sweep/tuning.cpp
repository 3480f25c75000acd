#include "sweep/tuning.h"

#include "gemm_check.h"
#include "kernels/11_autotuned.cuh"

#include <cstdio>
#include <string>

namespace step4
{
  void tune_kernel_11(const Settings &settings, lab::Checks &checks)
  {
    const int n = settings.options.quick ? quick_tuning_size : tuning_size;
    std::printf("\nkernel 11: tuning the tile sizes at n = %d (FP32 tolerance %.1e); each candidate\n"
                "timed alternately with kernel 10's sizes, ranked by its speed relative to them\n",
                n, gemm_tolerance<float>(n));
    for (const TuningResult &result : autotune(n, settings.options.reps))
      {
        checks.at_most("kernel 11 candidate " + result.name, result.error,
                       gemm_tolerance<float>(n));
        std::printf("  %-28s %10.0f GFLOP/s %8.3fx %10.2e   %s\n", result.name.c_str(),
                    result.gflops, result.relative_speed, result.error, lab::verdict(result.passed));
      }
    std::printf("  chosen: %s\n", tuned_choice().c_str());
  }
} // namespace step4
