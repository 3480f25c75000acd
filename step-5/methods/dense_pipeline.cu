// The dense pipeline (see dense_pipeline.h).
#include "methods/dense_pipeline.h"
#include "gpu/channel_layout.h"
#include "gpu/gram_matrix.h"

#include <solve_and_spd_inverse/spd_inverse.h>  // step-3: A⁻¹ = XᵀX
#include <solve_and_spd_inverse/substitution.h> // step-3: triangular solves
#include <triangular/triangular_inverse.h>      // step-3: X = L⁻¹

#include <lab/cuda_check.h>

#include <stdexcept>
#include <string>

namespace step5
{
  // The triangular inverse this step uses: the fastest of step-3 at the sizes of its
  // images (n = 1024 … 65536), found by name so that a renumbering shows up here.
  template <typename T>
  const step3::InverseVariant<T> &best_inverse()
  {
    static const step3::InverseVariant<T> *const variant = step3::find_inverse_variant<T>("4_recursive");
    return *variant;
  }

  template <typename T>
  DensePipeline<T>::DensePipeline(int rows, int cols, bool with_inverse, int channels)
    : rows_(rows), cols_(cols), n_(rows * cols), channels_(channels), with_inverse_(with_inverse),
      h_(static_cast<std::size_t>(n_) * n_), a_(static_cast<std::size_t>(n_) * n_),
      x_(with_inverse ? static_cast<std::size_t>(n_) * n_ : 0), b_(static_cast<std::size_t>(n_) * channels),
      solution_(with_inverse ? static_cast<std::size_t>(n_) * channels : 0),
      cholesky_workspace_(dense_pipeline_cholesky<T>().workspace_elements(n_, step2::default_panel_width<T>())),
      inverse_workspace_(with_inverse ? best_inverse<T>().workspace_elements(n_) : 0),
      solve_workspace_(step3::substitution_workspace(n_, one_column)), info_(1), cusolver_(n_, n_)
  {
  }

  template <typename T>
  double DensePipeline<T>::device_bytes(int rows, int cols, bool with_inverse, int channels)
  {
    const double n = double(rows) * cols;
    const double matrices = with_inverse ? 3 : 2;
    // The n² matrices, plus the factorisation's panel workspace and cuSOLVER's (both
    // a few panels of n numbers) and the right-hand sides, generously.
    return (matrices * n * n + 8.0 * n * step2::default_panel_width<T>() + 4.0 * n * channels) * sizeof(T);
  }

  template <typename T>
  void DensePipeline<T>::require_one_channel() const
  {
    if (channels_ != 1)
      throw std::logic_error("step5::DensePipeline: this run solves one channel, the pipeline was made for " +
                             std::to_string(channels_));
  }

  // @sect3{Stage 2: the normal equations}
  //
  // A = HᵀH is a symmetric product, of which only one triangle is computed
  // (gram_matrix.h): the course's and cuBLAS's GEMMs through the same recursion, the
  // lower triangle by rows; the vendor's pipeline by cuBLAS's SYRK on H stored as SYRK
  // runs fastest at that size, the lower triangle by columns (the upper one by rows).
  // λ is then added to the diagonal by a small kernel. b = Hᵀg is a product with one
  // column per channel: with op(H) = Hᵀ on H by rows, and with no transpose on H by
  // columns (which, read by rows, is Hᵀ). The channels, k images one after another,
  // are G's columns read as Gᵀ by rows (channel_layout.h): op(G) = Gᵀ, except for one
  // channel, which is a column as it lies. The thesis' formula needs HHᵀ instead.
  //
  // A is poisoned (NaN) before every run: the triangle a pipeline does not write stays
  // NaN, so a stage that read it by mistake, or a pipeline that wrote nothing, shows
  // at once in the results instead of reusing what the previous pipeline left.
  template <typename T>
  __global__ void add_to_diagonal_kernel(T *a, int n, T lambda)
  {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
      a[static_cast<long>(i) * n + i] += lambda;
  }

  template <typename T>
  void DensePipeline<T>::form_system(const DevicePsf<T> &psf, T lambda, const T *g, const lab::Gemm<T> &gemm,
                                     lab::Cublas *vendor, bool thesis, StageTimes &times)
  {
    const int n = n_;
    const Storage storage = vendor ? vendor_h_storage(n) : Storage::by_rows;
    a_.poison();
    timed(times.build, [&] { build_blur_matrix(psf, rows_, cols_, h_.data(), nullptr, storage); });
    timed(times.normal, [&] {
      const lab::Op op = thesis ? lab::Op::none : lab::Op::transpose;
      if (vendor)
        vendor_gram(*vendor, h_.data(), storage, n, op, a_.data(), nullptr);
      else
        lower_gram(h_.data(), n, n, n, op, a_.data(), n, gemm, nullptr);
      add_to_diagonal_kernel<<<(n + 255) / 256, 256>>>(a_.data(), n, lambda);
      LAB_CHECK_LAUNCH();
      const lab::Op transpose_h = storage == Storage::by_columns ? lab::Op::none : lab::Op::transpose;
      const int k = channels_;
      const lab::Op op_g = k == 1 ? lab::Op::none : lab::Op::transpose;
      gemm(lab::gemm_args<T>({n, k, n, transpose_h, op_g}, 1, h_.data(), n, g, k == 1 ? one_column : n, 0,
                             b_.data(), k),
           nullptr);
    });
  }

  template <typename T>
  int DensePipeline<T>::failed_column() const
  {
    int info = 0;
    info_.copy_to_host(&info, 1);
    return info - 1;
  }

  // @sect3{A pipeline with its own solver}
  template <typename T>
  StageTimes DensePipeline<T>::run_with_solver(const DevicePsf<T> &psf, T lambda, const T *g,
                                               const lab::Gemm<T> &gemm,
                                               const std::function<int(const T *, const T *, T *)> &solve_system, T *f)
  {
    require_one_channel();
    StageTimes times;
    form_system(psf, lambda, g, gemm, nullptr, false, times);
    int info = 0;
    timed(times.factor, [&] { info = solve_system(a_.data(), b_.data(), f); });
    times.failed_column = info - 1;
    return times;
  }

  // The vendor's A lies in the lower triangle by columns, the upper one by rows:
  // mirroring it into the lower one by rows makes it whole.
  template <typename T>
  StageTimes DensePipeline<T>::run_vendor_with_solver(const DevicePsf<T> &psf, T lambda, const T *g,
                                                      lab::Cublas &cublas,
                                                      const std::function<int(T *, const T *, T *)> &solve_system,
                                                      T *f)
  {
    require_one_channel();
    StageTimes times;
    form_system(psf, lambda, g, lab::cublas_gemm_exact<T>(cublas), &cublas, false, times);
    int info = 0;
    timed(times.factor, [&] {
      step2::mirror_upper_to_lower(a_.data(), n_, n_, nullptr);
      info = solve_system(a_.data(), b_.data(), f);
    });
    times.failed_column = info - 1;
    return times;
  }

  // @sect3{The course's pipeline}
  template <typename T>
  StageTimes DensePipeline<T>::run(const DevicePsf<T> &psf, T lambda, const T *g, const lab::Gemm<T> &gemm,
                                   T *f_solve, T *f_inverse)
  {
    StageTimes times;
    const int n = n_;
    form_system(psf, lambda, g, gemm, nullptr, false, times);

    timed(times.factor, [&] {
      dense_pipeline_cholesky<T>().factorize(
        step2::cholesky_args(a_.data(), n, n, info_.data(), cholesky_workspace_.data(), gemm));
    });
    times.failed_column = failed_column();
    if (times.failed_column >= 0)
      return times;

    // Route (b): f_c = L⁻ᵀ (L⁻¹ b_c), channel by channel in place in f_solve: step-3's
    // chained substitution, its fastest for one right-hand side (channels_together.h
    // says why not all at once).
    const int k = channels_;
    timed(times.solve, [&] {
      columns_to_channels(b_.data(), n, k, f_solve, nullptr);
      for (int c = 0; c < k; ++c)
        step3::solve_with_cholesky_factor(a_.data(), n, n, f_solve + static_cast<long>(c) * n, one_column,
                                          one_column, solve_workspace_.data(), info_.data(), gemm, nullptr);
    });
    if (!with_inverse_)
      return times;

    // Route (a): X = L⁻¹, then A⁻¹ = XᵀX into H's array (H is no longer needed),
    // then F = A⁻¹ B.
    timed(times.invert, [&] {
      best_inverse<T>().invert(
        step3::inverse_args<T>(a_.data(), n, n, x_.data(), info_.data(), inverse_workspace_.data(), gemm));
    });
    T *const inverse = h_.data();
    timed(times.inverse, [&] { step3::inverse_from_factor_inverse(x_.data(), n, n, inverse, n, gemm, nullptr); });
    timed(times.apply, [&] {
      gemm(lab::gemm_args<T>({n, k, n, lab::Op::none, lab::Op::none}, 1, inverse, n, b_.data(), k, 0,
                             solution_.data(), k),
           nullptr);
      columns_to_channels(solution_.data(), n, k, f_inverse, nullptr);
    });
    LAB_CHECK(cudaDeviceSynchronize());
    return times;
  }

  // @sect3{The vendor's pipeline, and the thesis' formula on it}
  template <typename T>
  StageTimes DensePipeline<T>::solve_by_vendor(const DevicePsf<T> &psf, T lambda, const T *g, lab::Cublas &cublas,
                                               T *f, bool thesis)
  {
    StageTimes times;
    form_system(psf, lambda, g, lab::cublas_gemm_exact<T>(cublas), &cublas, thesis, times);
    // potrf with LOWER reads the triangle SYRK wrote, and potrs takes the factor as
    // potrf left it (step-2's CusolverCholesky).
    timed(times.factor, [&] { cusolver_.factorize(a_.data(), info_.data(), nullptr); });
    times.failed_column = failed_column();
    if (times.failed_column >= 0)
      return times;
    // potrs reads B by columns: the channels as they lie, one after another.
    timed(times.solve, [&] {
      columns_to_channels(b_.data(), n_, channels_, f, nullptr);
      using Factor = typename step2::CusolverCholesky<T>::Factor;
      cusolver_.solve(a_.data(), Factor::as_potrf_left_it, f, channels_, n_, info_.data(), nullptr);
    });
    LAB_CHECK(cudaDeviceSynchronize());
    return times;
  }

  template class DensePipeline<float>;
  template class DensePipeline<double>;
} // namespace step5
