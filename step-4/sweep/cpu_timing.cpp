#include "sweep/cpu_timing.h"

#include "gemm_check.h"

#include <lab/lapack.h>
#include <lab/timer.h>

#include <algorithm>
#include <cstdio>

namespace step4
{
  namespace
  {
    void blas_sgemm(const lab::Matrix<float> &a, const lab::Matrix<float> &b, lab::Matrix<float> &c)
    {
      lab::blas_multiply(a, b, c);
    }

    int limit(const Settings &settings, const CpuLoop &loop)
    {
      return settings.options.quick ? loop.full_sweep_limit / 2 : loop.full_sweep_limit;
    }

    // One size: the time of a loop is the median of `reps` runs on the host clock (the
    // work is synchronous here); its check is on the result of the last run. The
    // heading comes before the first loop that runs.
    CpuSizeResult run_cpu_size(const Settings &settings, int n, lab::Checks &checks)
    {
      const GemmShape shape{n, n, n};
      const GemmProblem<float> problem = random_problem<float>(shape, 1.0f, 0.0f, 4000 + n);
      const ConsoleLines lines{checks, "float n=" + std::to_string(n), shape,
                               gemm_tolerance<float>(n)};
      CpuSizeResult result;
      result.n = n;
      bool heading_printed = false;
      for (const CpuLoop &loop : cpu_loops())
        {
          if (!loop.multiply || n > limit(settings, loop))
            continue;
          if (!heading_printed)
            std::printf("\nn = %d, CPU references (no cuBLAS column; checked: %s)\n", n,
                        gemm_check_coverage(shape).c_str());
          heading_printed = true;
          lab::Matrix<float> c;
          const auto samples = lab::repeat(settings.options.reps, [&] {
            lab::HostTimer timer;
            loop.multiply(problem.a, problem.b, c);
            return timer.milliseconds();
          });
          const Measurement measured{lab::median(samples), gemm_error(problem, c)};
          lines.print(loop.name, measured);
          result.loops.record(loop.name, measured);
        }
      return result;
    }
  } // namespace

  const std::vector<CpuLoop> &cpu_loops()
  {
    static const CpuLoop::Multiply blas_if_installed = lab::have_blas() ? blas_sgemm : nullptr;
    static const std::vector<CpuLoop> loops = {
      {"CPU_naive", "naive_ms", multiply_naive, 512},
      {"CPU_cache_tiled", "cache_tiled_ms", multiply_cache_tiled, 1024},
      {"CPU_OpenMP_rows", "openmp_rows_ms", multiply_openmp_rows, 2048},
      {"CPU_OpenMP_tiles", "openmp_tiles_ms", multiply_openmp_tiles, 2048},
      {"CPU_BLAS", "blas_ms", blas_if_installed, 2048},
    };
    return loops;
  }

  // A size gets its row in the CPU table where any loop is within its limit (BLAS
  // installed or not: its column is then NaN).
  void run_cpu_sizes(const Settings &settings, const std::vector<int> &sizes, Tables &tables,
                     lab::Checks &checks)
  {
    for (const int n : sizes)
      if (std::any_of(cpu_loops().begin(), cpu_loops().end(),
                      [&](const CpuLoop &loop) { return n <= limit(settings, loop); }))
        tables.add(run_cpu_size(settings, n, checks));
    tables.write_cpu();
  }
} // namespace step4
