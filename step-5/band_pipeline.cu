// The band pipeline (see band_pipeline.h).
#include "band_pipeline.h"

#include <substitution.h> // step-3: triangular solves

#include <lab/cuda_check.h>

#include <algorithm>
#include <cmath>

namespace step5
{
  // The panel width trades the panels' serial work against their number and against
  // the products' width. Each panel step factorises an nb × nb diagonal block (one
  // thread block, work growing like nb² in a chain) and inverts it (small products),
  // which the look-ahead hides only behind a long enough update; narrow panels make
  // many steps and narrow products, wide ones long chains. The best width grows with
  // the band. Measured on an H100, the whole pipeline with a Gaussian 9 × 9 PSF:
  //   float  256²  (b = 2056):  panels of 128: 95.6 ms, 256: 102 ms
  //   float  512²  (b = 4104):  128: 743 ms, 256: 512 ms, 384: 561 ms
  //   float 1024²  (b = 8200):  256: 4.80 s, 384: 3.89 s, 512: 3.47 s
  //   double 256²  (b = 2056):  128: 162 ms, 256: 179 ms
  // The best width is about b/16 in float, and narrower in double, where the diagonal
  // blocks are slower (as in step-2): b/32. Rounded to a multiple of 128, from 128 to
  // 512 (the largest diagonal block step-2 factorises in one launch).
  template <typename T>
  int band_panel_width(int bandwidth)
  {
    const int per_panel = sizeof(T) == 4 ? 16 : 32;
    const int multiples = static_cast<int>(std::lround(double(bandwidth) / per_panel / 128));
    return 128 * std::clamp(multiples, 1, 4);
  }

  namespace
  {
    template <typename T>
    BandLayout layout_for(const Psf &psf, int rows, int cols, int panel_width)
    {
      const int bandwidth = normal_matrix_bandwidth(psf, rows, cols);
      return BandLayout::make(rows * cols, bandwidth, panel_width > 0 ? panel_width : band_panel_width<T>(bandwidth));
    }
  } // namespace

  template <typename T>
  BandPipeline<T>::BandPipeline(const Psf &psf, int rows, int cols, const lab::Gemm<T> &gemm, int panel_width)
    : rows_(rows), cols_(cols), layout_(layout_for<T>(psf, rows, cols, panel_width)), gemm_(gemm),
      band_(layout_.elements()), b_(static_cast<std::size_t>(layout_.n)),
      cholesky_workspace_(best_cholesky<T>().workspace_elements(layout_.n, layout_.panel)),
      solve_workspace_(step3::substitution_workspace(layout_.n, one_column)), info_(1)
  {
    // The dense code sees A at the first entry of the storage's diagonal, with the
    // storage's leading dimension (band_matrix.h).
    step2::CholeskyArgs<T> args;
    args.a = band_.data() + layout_.index(0, 0);
    args.n = layout_.n;
    args.ld = layout_.ld();
    args.info = info_.data();
    args.workspace = cholesky_workspace_.data();
    args.gemm = gemm_;
    args.panel_width = layout_.panel;
    args.bandwidth = layout_.bandwidth;
    factorisation_.capture([&](cudaStream_t stream) {
      args.stream = stream;
      best_cholesky<T>().factorize(args);
    });
  }

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
  DenseTimes BandPipeline<T>::run(const DevicePsf<T> &psf, T lambda, const T *g, T *f)
  {
    DenseTimes times;
    const int n = layout_.n;
    if (f != solves_write_)
      { // f = L⁻ᵀ (L⁻¹ b), in place in f.
        solves_.capture([&](cudaStream_t stream) {
          LAB_CHECK(cudaMemcpyAsync(f, b_.data(), n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
          for (const lab::Op op : {lab::Op::none, lab::Op::transpose})
            step3::solve_lower(band_.data() + layout_.index(0, 0), n, layout_.ld(), op, f, one_column, one_column,
                               solve_workspace_.data(), info_.data(), gemm_, stream, layout_.bandwidth);
        });
        solves_write_ = f;
      }
    timed(times.normal, [&] {
      assemble_normal_band(psf, rows_, cols_, lambda, layout_, band_.data(), nullptr);
      blur_transpose_on_device(psf, rows_, cols_, g, b_.data(), nullptr);
    });
    timed(times.factor, [&] { factorisation_.launch(); });
    int info = 0;
    info_.copy_to_host(&info, 1);
    times.failed_column = info - 1;
    if (times.failed_column >= 0)
      return times;
    timed(times.solve, [&] { solves_.launch(); });
    LAB_CHECK(cudaDeviceSynchronize());
    return times;
  }

  template int band_panel_width<float>(int);
  template int band_panel_width<double>(int);
  template class BandPipeline<float>;
  template class BandPipeline<double>;
} // namespace step5
