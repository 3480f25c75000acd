#pragma once
// @sect3{What the dense and the band pipeline share}
//
// Both pipelines solve the normal equations directly, in stages timed one by one on
// the stream (the dense pipeline: build H, form A, factorise, then the inverse or two
// solves; the band pipeline: assemble A's band, factorise, solve), and both factorise
// with the same variant of step-2. The stage times are one struct for both: a stage
// a pipeline does not do stays 0.

#include <cholesky_variants.h> // step-2: the factorisations

#include <lab/timer.h>

namespace step5
{
  // The factorisation of the dense pipeline: the fastest of step-2 at the sizes of its
  // images (n = 1024 … 65536), found by name so that a renumbering shows up here
  // (the results page gives the measurement that chose it).
  template <typename T>
  const step2::Variant<T> &best_cholesky()
  {
    static const step2::Variant<T> *const variant = step2::find_variant<T>("7_panel_by_halves");
    return *variant;
  }

  // The factorisation of the band pipeline: variant 5, whose panel width the band
  // storage is laid out for (band_matrix.h); on that storage it is faster than variant
  // 7 (the results page).
  template <typename T>
  const step2::Variant<T> &band_cholesky()
  {
    static const step2::Variant<T> *const variant = step2::find_variant<T>("5_look_ahead");
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
