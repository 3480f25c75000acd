#pragma once
// @sect3{Timing on the GPU}
//
// The matrix is uploaded once and kept as it was generated; before every run (and
// outside its timing) it is copied into the buffer that the factorisation
// overwrites, times 4^e with e drawn afresh for the run from a seed no program can
// know (lab/fresh_inputs.h), and `info` is poisoned (-1), so that a variant that never
// writes it cannot pass. The factor of 4^e A is 2^e L exactly, every rounding as for A;
// multiplied back by 2^-e it is what the same code gives on A, and a variant that
// handed back an earlier run's factor would be off by a factor of 2 at least.
//
// cuSOLVER is timed alone, the median of `reps` runs between CUDA events
// (lab::median_gpu_milliseconds); each variant alternately with cuSOLVER, a run of
// each in turn (lab::median_gpu_milliseconds_alternately), and its percentage of
// cuSOLVER's speed is the median over the pairs of their ratio: at the GPU's power
// limit the clock moves within a second, and only two runs made side by side see the
// same clock (lab/timer.h). After every run of a variant, untimed, its factor is
// checked on the GPU by Freivalds' probe (lab/probes.h: A x against L(Lᵀx) for a
// random x, n² work where forming L Lᵀ would be n³), and the worst of the runs is
// kept: a variant that is right only on some runs fails. The factor of the last run,
// the variant's, is then copied back and checked in full (factor_residual.h), and kept
// for whoever wants to look at it.

#include "cholesky_variants.h"
#include "factor_residual.h"
#include "size_result.h"

#include <lab/checks.h>
#include <lab/compare.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/fresh_inputs.h>
#include <lab/matrix.h>
#include <lab/probes.h>
#include <lab/streams.h>
#include <lab/timer.h>

#include <functional>
#include <string>

namespace step2
{
  // What a variant is timed beside: cuSOLVER's factorisation of the same buffer.
  template <typename T>
  using Yardstick = std::function<void(T *matrix, int *info)>;

  template <typename T>
  struct DeviceMatrix
  {
    const lab::Matrix<T> &a;
    lab::DeviceBuffer<T> pristine, work;
    lab::DeviceBuffer<int> info;
    // The factor of the last run, on the host.
    lab::Matrix<T> factor;
    // The exponent of the current run's input, 4^e A.
    lab::FreshScale fresh;

    explicit DeviceMatrix(const lab::Matrix<T> &matrix)
      : a(matrix), pristine(matrix), work(matrix.size()), info(1)
    {}

    // The copies to and from the GPU that a user of a factorisation pays on top of
    // it: A up, L down (pageable host memory), the median of @p reps.
    double copies_ms(int reps)
    {
      lab::Matrix<T> down(a.rows(), a.cols());
      return lab::median_gpu_milliseconds(reps, [&] {
        work.upload(a);
        work.download(down);
      });
    }

    // Times @p factorize alone (cuSOLVER). @p to_course_layout, when given, turns the
    // factor of the last run into L by rows (cuSOLVER's comes back by columns), after
    // the timing.
    template <typename Factorize>
    Factorisation run(int reps, Factorize factorize, const std::function<void(T *)> &to_course_layout = {})
    {
      const double ms = lab::median_gpu_milliseconds(reps, [&] { factorize(work.data(), info.data()); }, restore());
      unscale();
      if (to_course_layout)
        to_course_layout(work.data());
      Factorisation f = check_last_run();
      f.ms = ms;
      return f;
    }

    // Times @p factorize (a variant) alternately with @p vendor (cuSOLVER), probes
    // the factor of each of its runs, and checks the one the last run left in full.
    template <typename Factorize>
    Factorisation run_beside(int reps, const Yardstick<T> &vendor, Factorize factorize)
    {
      double worst_probe = 0;
      const lab::AlternateTimes times = lab::median_gpu_milliseconds_alternately(
        reps, [&] { vendor(work.data(), info.data()); }, [&] { factorize(work.data(), info.data()); },
        restore(), [&] {
          unscale();
          worst_probe = lab::nan_max(worst_probe, lab::cholesky_probe_on_gpu(pristine.data(), work.data(),
                                                                             a.rows(), a.ld()));
        });
      Factorisation f = check_last_run();
      f.ms = times.work_ms;
      f.percent_of_vendor = 100 * times.relative_speed;
      f.vendor_ms_in_pairs = times.yardstick_ms;
      f.probe = worst_probe;
      return f;
    }

  private:
    // What runs before every run: the matrix restored and scaled by a fresh 4^e, info
    // poisoned.
    std::function<void()> restore()
    {
      return [this] {
        fresh.next();
        work.copy_from_device(pristine);
        lab::scale_on_gpu(work.data(), work.count(), 2 * fresh.exponent());
        info.poison();
      };
    }

    // The factor of the run just made multiplied back by 2^-e, into the factor of A.
    // (What lies above the diagonal, A's upper triangle, is scaled too and read by
    // nobody.)
    void unscale() { lab::scale_on_gpu(work.data(), work.count(), -fresh.exponent()); }

    // The factor and info of the last run, copied back and checked.
    Factorisation check_last_run()
    {
      factor = lab::Matrix<T>(a.rows(), a.cols(), a.ld());
      work.download(factor);
      int status = -1;
      info.copy_to_host(&status, 1);
      Factorisation f;
      f.residual = status == 0 ? factor_residual(a, factor) : not_run;
      f.info = status;
      return f;
    }
  };

  // The checks of a factorisation of a positive definite matrix, under the name
  // @p what: info 0, the residual within @p tolerance, and, for one timed beside
  // cuSOLVER, every run's probe within its tolerance. True when all pass.
  template <typename T>
  bool check_factorisation(lab::Checks &checks, const std::string &what, const Factorisation &f, int n,
                           double tolerance)
  {
    bool ok;
    if (f.info != 0)
      {
        checks.fail(what, "info = " + std::to_string(f.info) + " on a positive definite matrix");
        ok = false;
      }
    else
      ok = checks.at_most(what, f.residual, tolerance);
    if (f.probe)
      ok = checks.at_most(what + " every run (probe)", *f.probe, lab::probe_tolerance<T>(n)) && ok;
    return ok;
  }

  // One variant on the device matrix, beside @p vendor: its workspace is allocated
  // here, before and outside the timed runs, and the product is cuBLAS's in the
  // working precision.
  // Given @p capture_ms, the variant is instead captured once into a CUDA graph
  // (lab::CudaGraph), and the graph is launched as a whole in every timed run; the
  // capture and the graph's preparation cost host time once, outside the timing,
  // returned in *capture_ms.
  template <typename T>
  Factorisation run_variant(DeviceMatrix<T> &device, const Yardstick<T> &vendor, const Variant<T> &variant,
                            int reps, lab::Cublas &cublas, int panel_width, double *capture_ms = nullptr)
  {
    const int n = device.a.rows();
    lab::DeviceBuffer<T> workspace(variant.workspace_elements(n, panel_width));
    CholeskyArgs<T> args = cholesky_args(device.work.data(), n, device.a.ld(), device.info.data(),
                                         workspace.data(), lab::cublas_gemm_exact<T>(cublas), panel_width);
    if (!capture_ms)
      return device.run_beside(reps, vendor, [&](T *, int *) { variant.factorize(args); });
    lab::CudaGraph graph;
    lab::HostTimer timer;
    graph.capture([&](cudaStream_t stream) {
      args.stream = stream;
      variant.factorize(args);
    });
    *capture_ms = timer.milliseconds();
    return device.run_beside(reps, vendor, [&](T *, int *) { graph.launch(); });
  }
} // namespace step2
