#include "sweep/double_precision.h"

#include "gemm_check.h"
#include "kernels/20_ozaki_int8.cuh"

#include <cstdio>
#include <string>

namespace step4
{
  namespace
  {
    // What kernel 20 did in its last run: how many moduli and bits the data asked
    // for, or why it left the product to the double kernel.
    void print_ozaki_report()
    {
      const OzakiReport report = last_ozaki_report();
      if (report.fell_back.empty())
        std::printf("    (kernel 20: %d moduli, %d bits of each row and column, %d integer products with the bound's)\n",
                    report.moduli, report.bits, report.moduli + 1);
      else
        std::printf("    (kernel 20 left this product to the double kernel: %s)\n", report.fell_back.c_str());
    }

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
          {
            result.kernels.record(
              kernel.name, device.run_and_print(reps, dgemm, kernel.launch, lines, kernel.name));
            if (kernel.launch == launch_20_ozaki_int8)
              print_ozaki_report();
          }
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
