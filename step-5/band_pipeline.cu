// The band pipeline (see band_pipeline.h).
#include "band_pipeline.h"

#include <substitution.h> // step-3: triangular solves

#include <lab/cuda_check.h>

namespace step5
{
  template <typename T>
  int band_panel_width()
  {
    return 128;
  }

  namespace
  {
    template <typename T>
    BandLayout layout_for(const Psf &psf, int rows, int cols, int panel_width)
    {
      return BandLayout::make(rows * cols, normal_matrix_bandwidth(psf, rows, cols),
                              panel_width > 0 ? panel_width : band_panel_width<T>());
    }
  } // namespace

  template <typename T>
  BandPipeline<T>::BandPipeline(const Psf &psf, int rows, int cols, int panel_width)
    : rows_(rows), cols_(cols), layout_(layout_for<T>(psf, rows, cols, panel_width)),
      band_(layout_.elements()), b_(static_cast<std::size_t>(layout_.n)),
      cholesky_workspace_(best_cholesky<T>().workspace_elements(layout_.n, layout_.panel)),
      solve_workspace_(step3::substitution_workspace(layout_.n, one_column)), info_(1)
  {}

  template <typename T>
  double BandPipeline<T>::device_bytes(const Psf &psf, int rows, int cols, int panel_width)
  {
    const BandLayout layout = layout_for<T>(psf, rows, cols, panel_width);
    const double n = layout.n, panel = layout.panel;
    // The band, b, and the workspaces: the factorisation's (a panel's copy and two
    // nb × nb blocks) and the solves' (n × 64), generously.
    return (double(layout.elements()) + 2 * n * panel + 2 * panel * panel + 70 * n) * sizeof(T);
  }

  template <typename T>
  DenseTimes BandPipeline<T>::run(const DevicePsf<T> &psf, T lambda, const T *g, const lab::Gemm<T> &gemm, T *f)
  {
    DenseTimes times;
    const int n = layout_.n;
    // The dense code sees A at the first entry of the storage's diagonal, with the
    // storage's leading dimension (band_matrix.h).
    T *const a = band_.data() + layout_.index(0, 0);
    const int ld = layout_.ld();
    timed(times.normal, [&] {
      assemble_normal_band(psf, rows_, cols_, lambda, layout_, band_.data(), nullptr);
      blur_transpose_on_device(psf, rows_, cols_, g, b_.data(), nullptr);
    });
    timed(times.factor, [&] {
      step2::CholeskyArgs<T> args;
      args.a = a;
      args.n = n;
      args.ld = ld;
      args.info = info_.data();
      args.workspace = cholesky_workspace_.data();
      args.gemm = gemm;
      args.panel_width = layout_.panel;
      args.bandwidth = layout_.bandwidth;
      best_cholesky<T>().factorize(args);
    });
    int info = 0;
    info_.copy_to_host(&info, 1);
    times.failed_column = info - 1;
    if (times.failed_column >= 0)
      return times;
    // f = L⁻ᵀ (L⁻¹ b), in place in f.
    timed(times.solve, [&] {
      LAB_CHECK(cudaMemcpyAsync(f, b_.data(), n * sizeof(T), cudaMemcpyDeviceToDevice, nullptr));
      for (const lab::Op op : {lab::Op::none, lab::Op::transpose})
        step3::solve_lower(a, n, ld, op, f, one_column, one_column, solve_workspace_.data(), info_.data(), gemm,
                           nullptr, layout_.bandwidth);
    });
    LAB_CHECK(cudaDeviceSynchronize());
    return times;
  }

  template int band_panel_width<float>();
  template int band_panel_width<double>();
  template class BandPipeline<float>;
  template class BandPipeline<double>;
} // namespace step5
