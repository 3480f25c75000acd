// The band pipeline (see band_pipeline.h).
#include "methods/band_pipeline.h"

#include <solve_and_spd_inverse/substitution.h> // step-3: triangular solves

#include <lab/cuda_check.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace step5
{
  namespace
  {
    // The panel width trades the panels' serial work against their number and against
    // the products' width. Each panel step factorises an nb × nb diagonal block and
    // inverts it, a chain that the look-ahead hides only behind a long enough update;
    // narrow panels make many steps and narrow products, wide ones long chains. The
    // best width grows with the band. Variant 9 is given the least width it may take
    // and takes up to twice that (about n/16, Variant::panel_width), so the
    // storage is laid out for the width it will take. Measured on an H200, the
    // factorisation alone, launched directly, a Gaussian 9 × 9 PSF, by the width taken:
    //   float   256²  (b = 2056):  128: 50.4 ms, 256: 55.2 ms, 512: 62.9 ms
    //   float   512²  (b = 4104):  256: 331 ms, 512: 362 ms, 1024: 398 ms
    //   float  1024²  (b = 8200):  256: 2.91 s, 384: 2.56 s, 512: 2.37 s, 1024: 2.83 s
    //   double  512²  (b = 4104):  256: 402 ms, 512: 457 ms
    //   double 1024²  (b = 8200):  256: 3.02 s, 512: 2.66 s
    // The best is about b/16 in both precisions. So the least width is b/32, rounded
    // to a multiple of 64, from 64 (a substitution block) to 256.
    int least_panel_width(int bandwidth)
    {
      const int multiples = static_cast<int>(std::lround(double(bandwidth) / 32 / 64));
      return 64 * std::clamp(multiples, 1, 4);
    }

    // The least panel width of the pipeline: @p panel_width, or the measured best for
    // the band. Step-3's substitution reads whole blocks of 64 rows, down to 63 below
    // the band, and the storage holds nb − 1 rows below it (band_matrix.h): panels
    // narrower than a block are refused.
    int least_panel_width(const PsfField &psf, int cols, int panel_width)
    {
      if (panel_width != 0 && panel_width < step3::substitution_block)
        throw std::invalid_argument("step5::BandPipeline: panels of " + std::to_string(panel_width) +
                                    " columns, fewer than a substitution block's " +
                                    std::to_string(step3::substitution_block));
      return panel_width > 0 ? panel_width : least_panel_width(normal_matrix_bandwidth(psf, cols));
    }

    // The layout for panels of the width the factorisation takes, given the least.
    template <typename T>
    BandLayout layout_for(const PsfField &psf, int rows, int cols, int least_panel)
    {
      const int n = rows * cols;
      return BandLayout::make(n, normal_matrix_bandwidth(psf, cols),
                              band_pipeline_cholesky<T>().panel_width(n, least_panel));
    }
  } // namespace

  template <typename T>
  BandPipeline<T>::BandPipeline(const Psf &psf, int rows, int cols, const lab::Gemm<T> &gemm, int panel_width,
                                int channels)
    : BandPipeline(constant_field(psf), rows, cols, gemm, panel_width, channels)
  {
  }

  template <typename T>
  BandPipeline<T>::BandPipeline(const PsfField &psf, int rows, int cols, const lab::Gemm<T> &gemm, int panel_width,
                                int channels)
    : rows_(rows), cols_(cols), channels_(channels), least_panel_(least_panel_width(psf, cols, panel_width)),
      layout_(layout_for<T>(psf, rows, cols, least_panel_)), gemm_(gemm), band_(layout_.elements()),
      b_(static_cast<std::size_t>(layout_.n) * channels),
      cholesky_workspace_(band_pipeline_cholesky<T>().workspace_elements(layout_.n, least_panel_)),
      solve_workspace_(step3::substitution_workspace(layout_.n, one_column)), info_(1)
  {
    // The dense code sees A at the first entry of the storage's diagonal, with the
    // storage's leading dimension (band_matrix.h).
    step2::CholeskyArgs<T> args =
      step2::cholesky_args(band_.data() + layout_.index(0, 0), layout_.n, layout_.ld(), info_.data(),
                           cholesky_workspace_.data(), gemm_, least_panel_);
    args.bandwidth = layout_.bandwidth;
    factorisation_.capture([&](cudaStream_t stream) {
      args.stream = stream;
      band_pipeline_cholesky<T>().factorize(args);
    });
    // The solves, L⁻ᵀ (L⁻¹ b_c), in place in b, channel after channel (one right-hand
    // side each: step-3's chained substitution).
    solves_.capture([&](cudaStream_t stream) {
      for (int c = 0; c < channels_; ++c)
        step3::solve_with_cholesky_factor(args.a, args.n, args.ld, b_.data() + static_cast<long>(c) * layout_.n,
                                          one_column, one_column, solve_workspace_.data(), info_.data(), gemm_,
                                          stream, layout_.bandwidth);
    });
  }

  template <typename T>
  double BandPipeline<T>::device_bytes(const Psf &psf, int rows, int cols, int panel_width, int channels)
  {
    return device_bytes(constant_field(psf), rows, cols, panel_width, channels);
  }

  template <typename T>
  double BandPipeline<T>::device_bytes(const PsfField &psf, int rows, int cols, int panel_width, int channels)
  {
    const int least_panel = least_panel_width(psf, cols, panel_width);
    const BandLayout layout = layout_for<T>(psf, rows, cols, least_panel);
    // The band, the channels' b, and the workspaces of the factorisation and of the
    // solves.
    const double elements = double(layout.elements()) + double(layout.n) * channels +
                            double(band_pipeline_cholesky<T>().workspace_elements(layout.n, least_panel)) +
                            double(step3::substitution_workspace(layout.n, one_column));
    return elements * sizeof(T);
  }

  template <typename T>
  StageTimes BandPipeline<T>::run(const DevicePsf<T> &psf, T lambda, const T *g, T *f)
  {
    StageTimes times;
    timed(times.normal, [&] {
      assemble_normal_band(psf, rows_, cols_, lambda, layout_, band_.data(), nullptr);
      const long n = layout_.n;
      for (int c = 0; c < channels_; ++c)
        blur_transpose_on_device(psf, rows_, cols_, g + c * n, b_.data() + c * n, nullptr);
    });
    timed(times.factor, [&] { factorisation_.launch(); });
    int info = 0;
    info_.copy_to_host(&info, 1);
    times.failed_column = info - 1;
    if (times.failed_column >= 0)
      return times;
    timed(times.solve, [&] {
      solves_.launch();
      LAB_CHECK(cudaMemcpyAsync(f, b_.data(), b_.count() * sizeof(T), cudaMemcpyDeviceToDevice, nullptr));
    });
    LAB_CHECK(cudaDeviceSynchronize());
    return times;
  }

  template class BandPipeline<float>;
  template class BandPipeline<double>;
} // namespace step5
