#pragma once
// @sect3{What the dense and the band pipeline share}
//
// Both pipelines solve the normal equations directly, in stages timed one by one on
// the stream (the dense pipeline: build H, form A, factorise, then the inverse or two
// solves; the band pipeline: assemble A's band, factorise, solve), each with a variant
// of step-2. The stage times are one struct for both: a stage a pipeline does not do
// stays 0.

#include <cholesky_variants.h> // step-2: the factorisations

#include <lab/timer.h>

namespace step5
{
  // The factorisation of the band pipeline: the fastest of step-2 on step-4's products
  // for a band, variant 9, whose trailing update is one product of a lower triangle
  // (kernels 15 and 14 leave out the tiles above the diagonal in one launch). Measured
  // on an H200 with step-4's products (the results page): n = 16384, 47.1 ms in float
  // and 53.9 in double, against variant 7's 54.1 and 74.4 and variant 8's 50.8 and
  // 66.4; on the band of a 1024² image, 2.37 s in float and 2.66 in double against
  // variant 5's 3.33 and 4.32 (all launched directly, not as graphs). Found by name,
  // so that a renumbering shows up here.
  template <typename T>
  const step2::Variant<T> &band_pipeline_cholesky()
  {
    static const step2::Variant<T> *const variant = step2::find_variant<T>("9_lower_triangle_update");
    return *variant;
  }

  // The factorisation of the dense pipeline: variant 10, which is variant 9 up to 16
  // panels (n = 8192 in double, 16384 in float) and cuts larger matrices in halves, so
  // that its solves and updates are products as large as the matrix allows: the large
  // products kernel 20 needs (step4::gemm_ozaki), and faster on any product from
  // n = 32768 (step-2's results page).
  template <typename T>
  const step2::Variant<T> &dense_pipeline_cholesky()
  {
    static const step2::Variant<T> *const variant = step2::find_variant<T>("10_recursive");
    return *variant;
  }

  // One right-hand side: b is an n × 1 matrix.
  constexpr int one_column = 1;

  // Times the work of @p stage on the default stream into @p milliseconds.
  template <typename Stage>
  void timed(double &milliseconds, Stage &&stage)
  {
    lab::EventTimer timer;
    timer.start();
    stage();
    timer.stop();
    milliseconds = timer.milliseconds();
  }

  // Milliseconds per stage of a pipeline, dense or band; the stages a run does not do
  // stay 0.
  struct StageTimes
  {
    double build = 0;   // H from the PSF (the dense pipelines only)
    double normal = 0;  // A = HᵀH + λI and b = Hᵀg
    double factor = 0;  // A = L Lᵀ
    double invert = 0;  // route (a): X = L⁻¹
    double inverse = 0; // route (a): A⁻¹ = XᵀX
    double apply = 0;   // route (a): f = A⁻¹ b
    double solve = 0;   // route (b): two triangular solves (the vendor's: potrs)
    int failed_column = -1; // ≥ 0: A was not positive definite there (λ too small)

    double inverse_route() const { return build + normal + factor + invert + inverse + apply; }
    double solve_route() const { return build + normal + factor + solve; }
  };
} // namespace step5
