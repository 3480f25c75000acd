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

    // The layout for the pipeline. The storage holds nb − 1 rows below the band
    // (band_matrix.h), and step-3's substitution reads whole blocks of 64 rows, down
    // to 63 below the band: panels narrower than a block are refused.
    template <typename T>
    BandLayout layout_for(const PsfField &psf, int rows, int cols, int panel_width)
    {
      if (panel_width != 0 && panel_width < step3::substitution_block)
        throw std::invalid_argument("step5::BandPipeline: panels of " + std::to_string(panel_width) +
                                    " columns, fewer than a substitution block's " +
                                    std::to_string(step3::substitution_block));
      const int bandwidth = normal_matrix_bandwidth(psf, cols);
      return BandLayout::make(rows * cols, bandwidth, panel_width > 0 ? panel_width : band_panel_width<T>(bandwidth));
    }
  } // namespace

  template <typename T>
  BandPipeline<T>::BandPipeline(const Psf &psf, int rows, int cols, const lab::Gemm<T> &gemm, int panel_width)
    : BandPipeline(constant_field(psf), rows, cols, gemm, panel_width)
  {
  }

  template <typename T>
  BandPipeline<T>::BandPipeline(const PsfField &psf, int rows, int cols, const lab::Gemm<T> &gemm, int panel_width)
    : rows_(rows), cols_(cols), layout_(layout_for<T>(psf, rows, cols, panel_width)), gemm_(gemm),
      band_(layout_.elements()), b_(static_cast<std::size_t>(layout_.n)),
      cholesky_workspace_(band_cholesky<T>().workspace_elements(layout_.n, layout_.panel)),
      solve_workspace_(step3::substitution_workspace(layout_.n, one_column)), info_(1)
  {
    // The dense code sees A at the first entry of the storage's diagonal, with the
    // storage's leading dimension (band_matrix.h).
    step2::CholeskyArgs<T> args =
      step2::cholesky_args(band_.data() + layout_.index(0, 0), layout_.n, layout_.ld(), info_.data(),
                           cholesky_workspace_.data(), gemm_, layout_.panel);
    args.bandwidth = layout_.bandwidth;
    factorisation_.capture([&](cudaStream_t stream) {
      args.stream = stream;
      band_cholesky<T>().factorize(args);
    });
    // The solves, L⁻ᵀ (L⁻¹ b), in place in b.
    solves_.capture([&](cudaStream_t stream) {
      for (const lab::Op op : {lab::Op::none, lab::Op::transpose})
        step3::solve_lower(args.a, args.n, args.ld, op, b_.data(), one_column, one_column, solve_workspace_.data(),
                           info_.data(), gemm_, stream, layout_.bandwidth);
    });
  }

  template <typename T>
  double BandPipeline<T>::device_bytes(const Psf &psf, int rows, int cols, int panel_width)
  {
    return device_bytes(constant_field(psf), rows, cols, panel_width);
  }

  template <typename T>
  double BandPipeline<T>::device_bytes(const PsfField &psf, int rows, int cols, int panel_width)
  {
    const BandLayout layout = layout_for<T>(psf, rows, cols, panel_width);
    // The band, b, and the workspaces of the factorisation and of the solves.
    const double elements = double(layout.elements()) + layout.n +
                            double(band_cholesky<T>().workspace_elements(layout.n, layout.panel)) +
                            double(step3::substitution_workspace(layout.n, one_column));
    return elements * sizeof(T);
  }

  template <typename T>
  StageTimes BandPipeline<T>::run(const DevicePsf<T> &psf, T lambda, const T *g, T *f)
  {
    StageTimes times;
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
    timed(times.solve, [&] {
      solves_.launch();
      LAB_CHECK(cudaMemcpyAsync(f, b_.data(), layout_.n * sizeof(T), cudaMemcpyDeviceToDevice, nullptr));
    });
    LAB_CHECK(cudaDeviceSynchronize());
    return times;
  }

  template class BandPipeline<float>;
  template class BandPipeline<double>;
} // namespace step5
