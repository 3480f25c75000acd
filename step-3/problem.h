#pragma once
// @sect3{Everything one size works on}
//
// The host matrices (A, its factor L with zeros above the diagonal) and their copies
// on the GPU, the cuBLAS and cuSOLVER handles, and one timing function: the median of
// `reps` runs of `work` between CUDA events, each prepared by `reset` outside the
// clock (restore an input that is overwritten in place, poison an output so that a
// computation that does not write it cannot pass).

#include "measurement.h"
#include "result_checks.h"
#include "settings.h"
#include "triangular/cusolver_triangular.h"
#include "triangular/triangular_cpu.h"

#include <cholesky_blocked_cpu.h> // step-2: the factor when there is no GPU
#include <cusolver_cholesky.h>    // step-2: cuSOLVER's potrf

#include <lab/compare.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/fresh_inputs.h>
#include <lab/probes.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab/timer.h>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace step3
{
  // The test matrices' condition: A's is 1e3, so L's (2-norm) is its square root, 31.6.
  // The residuals are relative to ‖L‖‖X‖, which carries the condition: ‖LX − I‖ <= c n ε
  // ‖L‖‖X‖ is what a stable inverse achieves (c = residual_constant).
  constexpr double condition_number = 1e3;

  template <typename T>
  struct Problem
  {
    const Settings &settings;
    int n;
    lab::Matrix<T> a, l;
    lab::Cublas *cublas = nullptr;
    lab::DeviceBuffer<T> device_a, device_l, device_x;
    lab::DeviceBuffer<int> info;
    lab::FreshScale fresh;
    // The vendor's routines for this size, their workspaces allocated once.
    std::unique_ptr<step2::CusolverCholesky<T>> cholesky; // potrf and potrs
    // potrs reads L from the triangle where the course keeps it, by rows (UPPER to
    // cuSOLVER), the faster of the two for one right-hand side.
    static constexpr auto factor_by_rows = step2::CusolverCholesky<T>::Factor::by_rows;
    std::unique_ptr<VendorTriangular<T>> vendor;          // trtri, trsm, potri

    Problem(const Settings &s, int size, lab::Cublas *handle)
      : settings(s), n(size), a(lab::random_spd<T>(size, condition_number, 3000 + size)), cublas(handle),
        device_a(0), device_l(0), device_x(0), info(0)
    {
      if (!settings.use_gpu)
        {
          l = a;
          step2::cholesky_blocked_cpu(l);
          l = lower_triangle(l);
          return;
        }
      info = lab::DeviceBuffer<int>(1);
      device_a = lab::DeviceBuffer<T>(a);
      device_l = lab::DeviceBuffer<T>(a.size());
      device_x = lab::DeviceBuffer<T>(a.size());
      cholesky = std::make_unique<step2::CusolverCholesky<T>>(n, n);
      vendor = std::make_unique<VendorTriangular<T>>(n, n, *cublas);
      device_l.copy_from_device(device_a);
      // cuSOLVER's factor comes back by columns; by rows it is L in the lower triangle
      // after to_course_layout, and then the buffer holds L both ways (step-2 says
      // how), which the vendor's routines below read in whichever layout they run
      // fastest in.
      cholesky->factorize(device_l.data(), info.data());
      cholesky->to_course_layout(device_l.data());
      l = lab::Matrix<T>(n, n);
      device_l.download(l);
      l = lower_triangle(l);
    }

    double time(const std::function<void()> &work, const std::function<void()> &reset)
    {
      return lab::median_gpu_milliseconds(settings.options.reps, work, reset);
    }

    // Times an inverse of L into device_x as time() does, each run on a fresh input
    // (lab/fresh_inputs.h): after @p reset, the matrix @p input the run reads L from
    // (device_l, or device_x where the routine inverts in place) is multiplied by 2^e,
    // with e drawn afresh from a seed no program can know. The inverse of 2^e L is
    // 2^-e L⁻¹ exactly, every rounding as for L. After each run, untimed, X is
    // multiplied back by 2^e (and device_l by 2^-e), and probed (lab/probes.h:
    // L(Xx) against x for a random x, n² work): a routine that handed back an earlier
    // run's X would be off by a factor of 2 at least, one right only on some runs fails
    // the probe of the others. The worst probe of the runs is returned in *probe.
    double time_on_fresh_inputs(const std::function<void()> &work, const std::function<void()> &reset,
                                lab::DeviceBuffer<T> &input, double *probe)
    {
      *probe = 0;
      return lab::median_gpu_milliseconds(
        settings.options.reps, work,
        [&] {
          reset();
          fresh.next();
          lab::scale_on_gpu(input.data(), input.count(), fresh.exponent());
        },
        [&] {
          if (&input == &device_l)
            lab::scale_on_gpu(device_l.data(), device_l.count(), -fresh.exponent());
          lab::scale_on_gpu(device_x.data(), device_x.count(), fresh.exponent());
          *probe = lab::nan_max(*probe, lab::inverse_probe_on_gpu(device_l.data(), device_x.data(), n, n));
        });
    }

    // The info the last computation left.
    int reported_info() const
    {
      int status = -1;
      info.copy_to_host(&status, 1);
      return status;
    }

    // X from the device, with its info, and the worst @p probe of its runs where they
    // were probed.
    Measurement result(const std::string &name, double ms, bool lower_only = false,
                       std::optional<double> probe = {})
    {
      lab::Matrix<T> x(n, n);
      device_x.download(x);
      if (lower_only)
        x = lower_triangle(x);
      const int status = reported_info();
      Measurement m{name, ms, status == 0 ? lab::inverse_residual(l, x, residual_columns(n)) : std::nan(""), status};
      if (probe)
        m.probe = Measurement::Probe{*probe, lab::probe_tolerance<T>(n)};
      return m;
    }

    lab::Gemm<T> gemm() const { return lab::cublas_gemm_exact<T>(*cublas); }
  };
} // namespace step3
