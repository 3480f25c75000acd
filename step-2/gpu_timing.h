#pragma once
// @sect3{Timing on the GPU}
//
// The matrix is uploaded once and kept as it was generated; before every run (and
// outside its timing) it is copied into the buffer that the factorisation
// overwrites, and `info` is poisoned (-1), so that a variant that never writes it
// cannot pass. cuSOLVER is timed alone, the median of `reps` runs between CUDA events
// (lab::median_gpu_milliseconds); each variant alternately with cuSOLVER, a run of
// each in turn (lab::median_gpu_milliseconds_alternately), and its percentage of
// cuSOLVER's speed is the median over the pairs of their ratio: at the GPU's power
// limit the clock moves within a second, and only two runs made side by side see the
// same clock (lab/timer.h). The factor of the last run, the variant's, is copied back
// and checked (factor_residual.h), and kept for whoever wants to look at it.

#include "cholesky_variants.h"
#include "factor_residual.h"
#include "size_result.h"

#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/matrix.h>
#include <lab/streams.h>
#include <lab/timer.h>

#include <functional>

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
      if (to_course_layout)
        to_course_layout(work.data());
      Factorisation f = check_last_run();
      f.ms = ms;
      return f;
    }

    // Times @p factorize (a variant) alternately with @p vendor (cuSOLVER), and checks
    // the variant's factor, which the last run left.
    template <typename Factorize>
    Factorisation run_beside(int reps, const Yardstick<T> &vendor, Factorize factorize)
    {
      const lab::AlternateTimes times = lab::median_gpu_milliseconds_alternately(
        reps, [&] { vendor(work.data(), info.data()); }, [&] { factorize(work.data(), info.data()); },
        restore());
      Factorisation f = check_last_run();
      f.ms = times.work_ms;
      f.percent_of_vendor = 100 * times.relative_speed;
      return f;
    }

  private:
    // What runs before every run: the matrix restored, info poisoned.
    std::function<void()> restore()
    {
      return [this] {
        work.copy_from_device(pristine);
        info.poison();
      };
    }

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
