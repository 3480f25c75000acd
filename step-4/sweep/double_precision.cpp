#include "sweep/double_precision.h"

#include "gemm_check.h"

#include <cstdio>
#include <string>

namespace step4
{
  namespace
  {
    DoubleSizeResult run_double_size(const Settings &settings, int n, lab::Cublas &cublas,
                                     lab::Checks &checks)
    {
      const int reps = settings.options.reps;
      const GemmShape shape{n, n, n};
      const GemmProblem<double> problem = random_problem<double>(shape, 1.0, 0.0, 8000 + n);
      DeviceProblem<double> device(problem);
      const double tolerance = gemm_tolerance<double>(n);
      std::printf("\nn = %d, double (tolerance %.1e; checked: %s)\n", n, tolerance,
                  device.coverage().c_str());
      print_column_names();
      DoubleSizeResult result;
      result.n = n;
      const lab::Gemm<double> dgemm = lab::cublas_gemm(cublas);
      result.cublas_dgemm = device.run(reps, dgemm);
      const ConsoleLines lines{checks, "double n=" + std::to_string(n), shape, tolerance};
      lines.print("cuBLAS_DGEMM", result.cublas_dgemm);
      for (const GemmKernel<double> &kernel : fp64_kernels())
        if (settings.runs(kernel.name) && kernel.runs_here())
          result.kernels.record(
            kernel.name, device.run_and_print(reps, dgemm, kernel.launch, lines, kernel.name));
      return result;
    }
  } // namespace

  void run_double_sizes(const Settings &settings, const std::vector<int> &sizes,
                        lab::Cublas &cublas, Tables &tables, lab::Checks &checks)
  {
    std::printf("\nthe double-precision kernels, against cuBLAS DGEMM:\n");
    for (const GemmKernel<double> &kernel : fp64_kernels())
      if (settings.runs(kernel.name))
        std::printf("  %-24s %s%s\n", kernel.name.c_str(), kernel.idea.c_str(),
                    kernel.runs_here() ? "" : " (skipped: this GPU cannot run it)");
    for (const int n : sizes)
      tables.add(run_double_size(settings, n, cublas, checks));
    tables.write_double();
  }
} // namespace step4
