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

#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab/timer.h>

#include <cmath>
#include <functional>
#include <memory>
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

    // The info the last computation left.
    int reported_info() const
    {
      int status = -1;
      info.copy_to_host(&status, 1);
      return status;
    }

    // X from the device, with its info.
    Measurement result(const std::string &name, double ms, bool lower_only = false)
    {
      lab::Matrix<T> x(n, n);
      device_x.download(x);
      if (lower_only)
        x = lower_triangle(x);
      const int status = reported_info();
      return {name, ms, status == 0 ? lab::inverse_residual(l, x, residual_columns(n)) : std::nan(""), status};
    }

    lab::Gemm<T> gemm() const { return lab::cublas_gemm_exact<T>(*cublas); }
  };
} // namespace step3
