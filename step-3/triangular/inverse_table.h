#pragma once
// @sect3{Table 1: the triangular inverse}
//
// X = L^{-1} by the CPU and LAPACK where they finish in seconds, the two vendor
// routines (trtri, and trsm against the identity), and every variant, each judged and
// printed as it finishes; the percent columns are of trtri and trsm.

#include "measurement.h"
#include "problem.h"
#include "result_checks.h"
#include "triangular/identity_and_singular_checks.cuh"
#include "triangular/triangular_cpu.h"
#include "triangular/triangular_inverse.h"

#include <lab/checks.h>
#include <lab/cuda_check.h>
#include <lab/lapack.h>
#include <lab/residuals.h>
#include <lab/timer.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace step3
{
  // The CPU runs where it finishes in seconds.
  inline int cpu_limit(const Settings &s) { return s.options.quick ? 1024 : 4096; }
  inline int lapack_limit(const Settings &s) { return s.options.quick ? 2048 : 8192; }

  inline double triangular_inverse_flops(int n) { return double(n) * n * n / 3; }

  // One size's row of the table: every computation, in the table's order.
  struct InverseResults
  {
    int n = 0;
    Measurement cpu, lapack, trtri, trsm;
    std::vector<Measurement> variants; // inverse_variants<T>()'s order; NaN for one not run
    double tolerance = std::nan("");
  };

  // The CPU's inverse (@p invert, the CPU_OpenMP loop or LAPACK), the median of `reps`
  // runs on the host clock.
  template <typename T, typename Invert>
  Measurement time_on_cpu(Problem<T> &p, const char *name, Invert invert)
  {
    Measurement m{name};
    lab::Matrix<T> x;
    m.ms = lab::median(lab::repeat(p.settings.options.reps, [&] {
      lab::HostTimer timer;
      m.info = invert(x);
      return timer.milliseconds();
    }));
    m.residual = lab::inverse_residual(p.l, lower_triangle(x), residual_columns(p.n));
    return m;
  }

  // One triangular variant into device_x, its workspace allocated outside the timing.
  template <typename T>
  Measurement run_inverse_variant(Problem<T> &p, const InverseVariant<T> &variant)
  {
    lab::DeviceBuffer<T> workspace(variant.workspace_elements(p.n));
    const InverseArgs<T> args =
      inverse_args(p.device_l.data(), p.n, p.n, p.device_x.data(), p.info.data(), workspace.data(), p.gemm());
    double probe = 0;
    const double ms = p.time_on_fresh_inputs([&] { variant.invert(args); },
                                             [&] {
                                               p.device_x.poison();
                                               p.info.poison();
                                             },
                                             p.device_l, &probe);
    return p.result(variant.name, ms, false, probe);
  }

  template <typename T>
  InverseResults run_inverses(Problem<T> &p, lab::Checks &checks, const std::string &context)
  {
    const int n = p.n;
    const double flops = triangular_inverse_flops(n), tolerance = sweep_tolerance<T>();
    std::printf(" triangular inverse X = L^-1 (%.1f GFLOP; tolerance %.1e)\n", flops / 1e9, tolerance);
    print_heading("inverse", "trtri", "trsm");

    InverseResults r;
    r.n = n;
    for (const InverseVariant<T> &variant : inverse_variants<T>())
      r.variants.push_back({variant.name});
    if (n <= cpu_limit(p.settings))
      {
        r.cpu = time_on_cpu(p, "CPU_OpenMP", [&](lab::Matrix<T> &x) { return invert_lower_cpu(p.l, x); });
        report(checks, context, r.cpu, flops, tolerance);
      }
    if (lab::have_lapack() && n <= lapack_limit(p.settings))
      {
        r.lapack = time_on_cpu(p, "LAPACK_trtri", [&](lab::Matrix<T> &x) {
          x = p.l;
          return *lab::lapack_triangular_inverse(x);
        });
        report(checks, context, r.lapack, flops, tolerance);
      }
    // Without a GPU the table keeps the CPU's times only (their residuals are judged
    // and printed above).
    if (!p.settings.use_gpu)
      {
        r.cpu.residual = r.lapack.residual = std::nan("");
        return r;
      }

    // trtri works in place: each run starts from a fresh copy of L. Its upper triangle
    // still holds A's, which trtri does not touch: only the lower one is X.
    VendorTriangular<T> &vendor = *p.vendor;
    double probe = 0;
    const double trtri_ms = p.time_on_fresh_inputs([&] { vendor.trtri(p.device_x.data(), p.info.data(), nullptr); },
                                                   [&] {
                                                     p.device_x.copy_from_device(p.device_l);
                                                     p.info.poison();
                                                   },
                                                   p.device_x, &probe);
    r.trtri = p.result("cuSOLVER_trtri", trtri_ms, true, probe);
    // trsm overwrites the identity with X; it has no info, so ours is set to 0.
    const double trsm_ms = p.time_on_fresh_inputs([&] { vendor.trsm(p.device_l.data(), p.device_x.data(), nullptr); },
                                                  [&] {
                                                    set_to_identity(p.device_x.data(), n, n, nullptr);
                                                    LAB_CHECK(cudaMemset(p.info.data(), 0, sizeof(int)));
                                                  },
                                                  p.device_l, &probe);
    r.trsm = p.result("cuBLAS_trsm(L,I)", trsm_ms, false, probe);
    const Yardsticks vendor_times{r.trtri.ms, r.trsm.ms};
    report(checks, context, r.trtri, flops, tolerance, vendor_times);
    report(checks, context, r.trsm, flops, tolerance, vendor_times);
    for (std::size_t v = 0; v < r.variants.size(); ++v)
      {
        const InverseVariant<T> &variant = inverse_variants<T>()[v];
        if (!p.settings.runs(variant, n))
          continue;
        r.variants[v] = run_inverse_variant(p, variant);
        report(checks, context, r.variants[v], flops, tolerance, vendor_times);
      }
    r.tolerance = tolerance;
    return r;
  }
} // namespace step3
