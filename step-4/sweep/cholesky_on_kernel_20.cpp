#include "sweep/cholesky_on_kernel_20.h"

#include "gemm_kernels.h"

#include <cholesky_variants.h> // step-2: the variants
#include <cusolver_cholesky.h> // step-2: cuSOLVER's potrf
#include <gpu_timing.h>        // step-2: alternate timing beside potrf

#include <lab/cli.h>
#include <lab/cublas_gemm.h>
#include <lab/format.h>
#include <lab/probes.h>
#include <lab/program.h>
#include <lab/table.h>
#include <lab/test_matrices.h>

#include <cstdio>
#include <string>

namespace step4
{
  namespace
  {
    // The products one factorisation is run on: a name for the console and the table,
    // the variant, the product.
    struct Contender
    {
      std::string name, column;
      const char *variant;
      lab::Gemm<double> gemm;
    };

    // One untimed factorisation on @p gemm, each product counted.
    Kernel20Tally count_kernel_20(step2::DeviceMatrix<double> &device, const step2::Variant<double> &variant,
                                  lab::DeviceBuffer<double> &workspace, const lab::Gemm<double> &gemm,
                                  int panel_width)
    {
      Kernel20Tally tally;
      device.work.copy_from_device(device.pristine);
      const int n = device.a.rows();
      variant.factorize(step2::cholesky_args(device.work.data(), n, device.a.ld(), device.info.data(),
                                             workspace.data(), tallied(gemm, tally), panel_width));
      LAB_CHECK(cudaDeviceSynchronize());
      return tally;
    }

    // One console line: name, time, dpotrf's median in the same pairs, percent of
    // dpotrf's speed, residual, check.
    void print_line(lab::Checks &checks, int n, double tolerance, const std::string &name,
                    const step2::Factorisation &f)
    {
      const bool ok =
        step2::check_factorisation<double>(checks, "cholesky n=" + std::to_string(n) + " " + name, f, n, tolerance);
      std::printf("  %-44s %10s %10s %9s %10.2e   %s\n", name.c_str(), lab::format_milliseconds(f.ms).c_str(),
                  lab::format_or_dash(f.vendor_ms_in_pairs, "%.4g").c_str(),
                  lab::format_or_dash(f.percent_of_vendor, "%.1f%%").c_str(), f.residual, lab::verdict(ok));
      std::fflush(stdout);
    }
  } // namespace

  std::vector<int> cholesky_sizes(const Settings &settings)
  {
    return lab::choose_sizes(settings.options, {16384, 32768}, {4096});
  }

  lab::Memory cholesky_memory_needed(int n)
  {
    const double matrix = lab::matrix_bytes<double>(n, n);
    return {3 * matrix, 4 * matrix};
  }

  void run_cholesky_on_kernel_20(const Settings &settings, const std::vector<int> &sizes, lab::Checks &checks)
  {
    if (!settings.use_gpu)
      throw lab::bad_input("--cholesky needs a GPU: it has no part on the CPU");
    const int reps = settings.options.reps, panel_width = step2::default_panel_width<double>();
    lab::Cublas cublas;
    const lab::Gemm<double> dgemm = lab::cublas_gemm_exact<double>(cublas);
    // Kernel 20 where step4::gemm_ozaki would take it, cuBLAS DGEMM for the rest: what
    // kernel 20 adds to the fastest product there is for the small ones.
    const lab::Gemm<double> kernel_20_and_dgemm = with_kernel_20(dgemm);
    const std::vector<Contender> contenders = {
      {"variant 9 (panels), cuBLAS DGEMM", "v9_cublas", "9", dgemm},
      {"variant 10 (halves), cuBLAS DGEMM", "v10_cublas", "10", dgemm},
      {"variant 10 (halves), step4::gemm", "v10_course", "10", lab::Gemm<double>(gemm)},
      {"variant 10 (halves), step4::gemm_ozaki", "v10_ozaki", "10", lab::Gemm<double>(gemm_ozaki)},
      {"variant 10 (halves), kernel 20 + cuBLAS DGEMM", "v10_kernel20_cublas", "10", kernel_20_and_dgemm}};
    std::vector<std::string> columns = {"n", "potrf_ms"};
    for (const Contender &c : contenders)
      columns.push_back(c.column + "_ms");
    for (const Contender &c : contenders)
      columns.push_back("percent_" + c.column);
    for (const Contender &c : contenders)
      columns.push_back("potrf_ms_in_pairs_" + c.column);
    columns.insert(columns.end(), {"residual_potrf", "residual_v10_kernel20_cublas", "tolerance", "kernel20_flop_share"});
    lab::Table table(columns);

    std::printf("\nkernel 20 inside a factorisation: step-2's Cholesky variants on five products, each timed "
                "alternately with cuSOLVER dpotrf (time = its median in the pairs, beside = dpotrf's median in the "
                "same pairs, of dpotrf = the median of the pairs' ratios); check: ||L L^T - A||_F / ||A||_F <= "
                "%g n eps, every run probed\n",
                step2::residual_constant);
    for (const int n : sizes)
      {
        const lab::Matrix<double> a = lab::random_spd<double>(n, 1e3, 2000 + n);
        const double tolerance = lab::tolerance<double>(step2::residual_constant, n);
        std::printf("\nn = %d (%.1f GFLOP; tolerance %.1e)\n", n, double(n) * n * n / 3e9, tolerance);
        std::printf("  %-44s %10s %10s %9s %10s   %s\n", "factorisation", "time", "beside", "of dpotrf",
                    "residual", "check");
        step2::DeviceMatrix<double> device(a);
        step2::CusolverCholesky<double> cusolver(n, a.ld());
        const step2::Yardstick<double> potrf = [&](double *m, int *info) { cusolver.factorize(m, info); };
        const step2::Factorisation vendor =
          device.run(reps, potrf, [&](double *factor) { cusolver.to_course_layout(factor); });
        print_line(checks, n, tolerance, "cuSOLVER_potrf", vendor);
        std::vector<double> row = {double(n), vendor.ms}, percent, in_pairs;
        double residual_kernel_20 = step2::not_run;
        Kernel20Tally share;
        for (const Contender &c : contenders)
          {
            const step2::Variant<double> &variant = *step2::find_variant<double>(c.variant);
            lab::DeviceBuffer<double> workspace(variant.workspace_elements(n, panel_width));
            const step2::CholeskyArgs<double> args = step2::cholesky_args(
              device.work.data(), n, a.ld(), device.info.data(), workspace.data(), c.gemm, panel_width);
            const step2::Factorisation f =
              device.run_beside(reps, potrf, [&](double *, int *) { variant.factorize(args); });
            print_line(checks, n, tolerance, c.name, f);
            row.push_back(f.ms);
            percent.push_back(f.percent_of_vendor);
            in_pairs.push_back(f.vendor_ms_in_pairs);
            if (&c == &contenders.back())
              {
                residual_kernel_20 = f.residual;
                share = count_kernel_20(device, variant, workspace, c.gemm, panel_width);
              }
          }
        std::printf("    (%s)\n", share.summary().c_str());
        row.insert(row.end(), percent.begin(), percent.end());
        row.insert(row.end(), in_pairs.begin(), in_pairs.end());
        row.insert(row.end(), {vendor.residual, residual_kernel_20, tolerance, share.flops_taken / share.flops});
        table.add_row(row);
      }
    lab::write_table(table, settings.options.out + "/step-4/cholesky_kernel20.dat",
                     {"step-4", lab::describe_for_table(settings.device), "double", reps,
                      {"step-2's variants 9 and 10 on five products against cuSOLVER dpotrf, each timed "
                       "alternately with it (percent: median of the pairs' ratios); kernel20_flop_share: of the "
                       "products' flops, kernel 20's"}});
  }
} // namespace step4
