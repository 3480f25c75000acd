#pragma once
// @sect3{Letting the data choose λ}
//
// λ weighs two errors against each other. A small λ trusts the data: the restoration
// follows g closely, noise included, and the noise comes back amplified by 1/|p̂|² at
// the frequencies the blur nearly erased. A large λ trusts the prior belief that f is
// small: the noise is damped, and so is every fine detail. Somewhere between lies the
// λ with the smallest error ‖f_λ − f‖, but f is what we do not know. Two classical
// rules pick λ from what we do know.
//
// @sect3{The discrepancy principle}
//
// This rule needs the noise level: σ, the noise's standard deviation per pixel. The
// true image itself does not fit the data exactly: ‖H f − g‖² is the energy of the
// noise, about n σ². A restoration that fits g better than that has begun to explain
// noise as if it were image. So the principle takes the λ at which the residual
// r(λ) = H f_λ − g has exactly that size,
// @f[ \|H f_\lambda - g\|^2 = \tau^2\, n \sigma^2 . @f]
// Many texts take τ a little above 1 (1.01 to 1.5): σ is usually itself an estimate,
// and an underestimated σ gives a noisy restoration, which looks far worse than a
// slightly smooth one. We take τ = 1, because the rule already errs on the smooth
// side. The restoration absorbs part of the noise, so the noise's share of its
// residual is only σ² · trace((I − A(λ))²) (A below), less than n σ²; with τ = 1 the
// image's misfit has to make up the difference, which takes a λ somewhat larger than
// the best one (on the test phantom, about twice the best). With the exact σ of this
// step's own noise there is no reason to lean further.
//
// @sect3{Generalised cross-validation}
//
// This rule (GCV) needs no σ. Cross-validation asks how well a λ predicts data it has
// not seen: leave pixel i out of g, restore from the other n − 1, blur the result again
// and compare its value at pixel i with g_i. The λ whose predictions, summed over all
// i, are best has learnt the image and not the noise, since the noise at pixel i cannot
// be predicted from the other pixels. For a linear method there is no need to restore n
// times: with the influence matrix
// @f[ A(\lambda) = H (H^TH + \lambda I)^{-1} H^T , \qquad H f_\lambda = A(\lambda)\, g, @f]
// the leave-one-out error of pixel i is r_i / (1 − A_ii), and cross-validation
// minimises the mean of their squares. That mean, however, depends on the coordinates
// in which the data are written: rotate g by an orthogonal matrix (the problem is the
// same) and the diagonal of A changes. GCV replaces every A_ii by their mean,
// trace(A)/n, which is what leave-one-out gives in the rotated coordinates where all
// diagonal entries are equal:
// @f[ G(\lambda) = \frac{n\, \|r(\lambda)\|^2}{\big(\mathrm{trace}(I - A(\lambda))\big)^2}. @f]
// The numerator grows with λ (the fit gets worse), the denominator shrinks as λ falls
// (the fit follows the data with more freedom, trace(A) counts the effective number
// of parameters fitted), and G is smallest where the two balance.
//
// @sect3{The periodic model, good enough for choosing λ}
//
// Both rules need ‖r(λ)‖² and trace(I − A(λ)) for many values of λ. With the exact
// zero-boundary H each is a solve with an n × n matrix, and the trace n of them. If the
// blur wrapped around the image's edges instead (the FFT filter's model, fft_filter.h),
// the discrete Fourier transform would diagonalise H: its eigenvalues are p̂_k, the
// transform of the PSF placed with its centre at pixel (0, 0), and with ĝ_k the
// transform of g every quantity becomes a sum over the n frequencies k:
// @f[ \hat r_k = \frac{\lambda}{|\hat p_k|^2 + \lambda}\, \hat g_k, \qquad
//     \|r\|^2 = \frac1n \sum_k \Big(\frac{\lambda}{|\hat p_k|^2 + \lambda}\Big)^2 |\hat g_k|^2, \qquad
//     \mathrm{trace}(I - A) = \sum_k \frac{\lambda}{|\hat p_k|^2 + \lambda}, @f]
// O(n) work per λ once the two transforms are made (the 1/n is Parseval's, for the
// transform without normalisation: Σ|x|² = (1/n) Σ|x̂|²). The periodic model does not
// restore the image here (the FFT filter's PSNR shows what the wrap-around costs): the
// restoration still solves the exact zero-boundary equations. It only chooses λ, and
// λ only needs to be about right: near its best value a factor 2 in λ costs a
// fraction of a dB.
//
// @sect3{Mirror the image first}
//
// Wrapping around joins the image's left edge to its right edge and its top to its
// bottom. Where those edges differ (a photograph: sky at the top, ground at the
// bottom) the periodic image has a jump along each seam, and a jump has energy at
// every frequency, most of it at high frequencies that the blur has all but erased.
// To explain it, the periodic model needs an f that is enormous there, which only a
// tiny λ allows; so the residual stays large until λ is tiny, and the discrepancy
// principle chooses a λ a hundred times too small (on the camera photograph of
// data/, 4·10⁻⁵ instead of about 10⁻², and a restoration far worse than the blurred
// image). The cure costs one line: choose λ on the image mirrored about its right
// and bottom edges, 2R × 2C pixels,
// @f[ \begin{pmatrix} g & g_{\leftrightarrow} \\ g_{\updownarrow} & g_{\leftrightarrow\updownarrow} \end{pmatrix}, @f]
// whose periodic extension is continuous across every seam. For a symmetric PSF the
// periodic model on the mirrored image is the blur with a reflecting boundary (the
// image continued outside by its mirror image), which is what cosine-transform
// deblurring uses; the rules then see only the mismatch between a reflecting and a
// zero boundary, a smooth darkening along the edges, where before they saw a jump.
// Every sum above then runs over 4n frequencies of an image with the same noise
// level per pixel, so τ² n σ² and G keep their meaning with n = 4RC. The
// phantom is black along its border, so mirroring does not change its choice; on the
// photograph the discrepancy principle chose λ = 3.7·10⁻⁵ before (9.9 dB, far below
// the blurred image's 22.4) and 2.2·10⁻³ after (24.8 dB; results page).
//
// Mirroring does not remove every mismatch. The degraded images of this step are
// blurred with a zero boundary (black outside the picture), so a picture whose edges
// are bright comes out with a dark rim, which neither model explains: there the
// rules still choose too small a λ. And both rules assume noise to find: without any
// (the test set's noise-free cases) GCV has no signal to go on and ends at one end of
// its range.
//
// @sect3{The range of λ searched}
//
// Both rules search λ between a floor set by the working precision and a ceiling
// that damps everything. Both scale with ‖H‖², which is at most (Σ|p|)²: each pixel
// of H f is a sum of pixels of f weighted by the taps, and |p̂_k| ≤ Σ|p| (1 for a PSF
// of nonnegative weights that sum to 1). The ceiling λ = 100 (Σ|p|)² damps every
// frequency to almost nothing. The floor: a solve with HᵀH + λI in a precision of unit roundoff
// u loses about log₁₀ κ of its digits, κ the condition number, and
// @f[ \kappa(H^TH + \lambda I) \le \frac{\|H\|^2 + \lambda}{\lambda}
//     \approx \frac{(\sum |p|)^2}{\lambda}. @f]
// The floor λ = √u (Σ|p|)² keeps κ below 1/√u, so the solve keeps at least half its
// digits: 2.4·10⁻⁴ in float and 1.05·10⁻⁸ in double for a PSF of nonnegative
// weights. Noise of σ = 0.01 calls for λ between 10⁻³ and 10⁻², above either floor;
// noise-free data calls for λ → 0, and a float solve with λ = 10⁻¹⁰ breaks down
// (HᵀH + λI is no longer positive definite in float).

#include "model/psf.h"

#include <lab/matrix.h>

#include <complex>
#include <functional>
#include <string>
#include <vector>

namespace step5
{
  // The interval both rules search.
  struct LambdaRange
  {
    double smallest;
    double largest;
  };

  // The range for solves in a precision of unit roundoff @p unit_roundoff: from
  // √u (Σ|p|)² to 100 (Σ|p|)².
  LambdaRange lambda_range(const Psf &psf, double unit_roundoff);

  // The λ chosen, and how, in words, for the program's output: "generalised
  // cross-validation (periodic model): G smallest at lambda = 0.00233 in [1e-10,
  // 100]".
  struct LambdaChoice
  {
    double lambda;
    std::string how;
    // Empty, or why the choice is an end of the range (the program prints it on a line
    // of its own: a λ at the end of its range is a rule that found no answer inside).
    std::string range_end;
  };

  // @sect3{The pieces, and the two rules}
  //
  // The 2-D discrete Fourier transform of an image, without normalisation:
  // @f[ \hat x(k, l) = \sum_{r, c} x(r, c)\, e^{-2\pi i (kr/R + lc/C)}, @f]
  // rows × cols values, row-major (entry k·cols + l).
  std::vector<std::complex<double>> dft_2d(const lab::Matrix<double> &image);

  // The eigenvalues p̂ of the periodic blur on images of rows × cols pixels: the
  // transform of the PSF placed on that grid with its centre at (0, 0) (tap (u, v) at
  // ((u − c_r) mod rows, (v − c_c) mod cols), as fft_filter.cu places it). Blurring
  // with wrap-around multiplies the transform of an image by them, frequency by
  // frequency.
  std::vector<std::complex<double>> periodic_blur_eigenvalues(const Psf &psf, int rows, int cols);

  // What both rules need from the data under the periodic model: |p̂_k|² and |ĝ_k|²,
  // and the sums above as functions of λ. Made once (two transforms), evaluated for as
  // many λ as the search wants. The constructor refuses (lab::bad_input) a PSF that
  // check_psf refuses, an empty image and a non-finite pixel.
  class PeriodicSpectrum
  {
  public:
    PeriodicSpectrum(const Psf &psf, const lab::Matrix<double> &g);

    // n, the number of pixels. The functions of λ below need λ > 0.
    double pixels() const { return pixels_; }
    // ‖H f_λ − g‖², in pixel space.
    double residual_norm2(double lambda) const;
    // trace(I − A(λ)).
    double residual_trace(double lambda) const;
    // G(λ).
    double gcv(double lambda) const;

  private:
    double pixels_;
    // Over half of the frequencies (the transforms of real images are Hermitian),
    // each counted multiplicity_ times (1 or 2) in a sum over all of them.
    std::vector<double> psf_power_;
    std::vector<double> image_power_;
    std::vector<double> multiplicity_;
  };

  // The image mirrored about its right and bottom edges: 2R × 2C pixels, g in the
  // top left quarter.
  lab::Matrix<double> mirrored(const lab::Matrix<double> &g);

  // The part of g that the zero boundary did not touch: without the rows and columns
  // within the PSF's reach of an edge (psf.rows() − 1 − c_r at the top, c_r at the
  // bottom, and so on), whose pixels the blur made partly of the black outside the
  // picture. g itself when what is left would be smaller than the PSF's half.
  lab::Matrix<double> without_rim(const lab::Matrix<double> &g, const Psf &psf);

  // Both rules work on this: the spectrum of mirrored(without_rim(g, psf)).
  PeriodicSpectrum spectrum_the_rules_see(const Psf &psf, const lab::Matrix<double> &g);

  //
  // The λ in @p range with the smallest G(λ).
  LambdaChoice choose_lambda_by_gcv(const Psf &psf, const lab::Matrix<double> &g, const LambdaRange &range);

  // The λ with ‖H f_λ − g‖² = τ² n σ², for the noise's standard deviation σ per pixel;
  // refused (lab::bad_input) for σ or τ not a finite number > 0. Where no λ in the
  // range meets the target, the end of the range nearest to it, and the text says so.
  LambdaChoice choose_lambda_by_discrepancy(const Psf &psf, const lab::Matrix<double> &g, double sigma,
                                            const LambdaRange &range, double tau = 1);

  // Golden-section search (explained with GCV in lambda_choice.cpp) for a minimum of
  // @p f between @p a and @p b, until the bracket is narrower than @p width: the
  // bracket's middle and f there. It assumes one minimum inside the bracket.
  struct Minimum
  {
    double x;
    double value;
  };
  Minimum golden_section_minimum(const std::function<double(double)> &f, double a, double b, double width);

  // @sect3{The discrepancy principle when each residual costs a solve}
  //
  // The periodic model makes ‖r(λ)‖² cheap, so bisection can afford 45 evaluations.
  // For a PSF field no transform diagonalises H (psf_field.h): each ‖H f_λ − g‖² takes
  // a solve of the field's own equations (methods/exact_lambda.h), and the search has
  // to get by with a handful. Two facts make that possible. The residual grows with λ,
  // so it crosses the target once. And in log–log coordinates it is nearly a straight
  // line near the crossing: over the factor 4 around it on the rotation's phantom,
  // log ‖r‖² rises by 0.9 to 1.2 per unit of log λ. A secant step in (log λ, log ‖r‖²)
  // therefore lands close to the crossing, and from a start within a factor 4 of it
  // two to five solves meet the target to 1 % (the sweeps on the results page). The
  // search:
  //  1. from @p start, secant steps (the first with slope 1, ‖r‖² ∝ λ; none longer
  //     than two decades, since far below the crossing the curve is nearly flat and
  //     its secant would send the next step decades too far; a slope that rounding
  //     made flat or negative replaced by 1) until two points lie on opposite sides of
  //     the target, or the range ends;
  //  2. then regula falsi between the two sides, with the Illinois rule (the value
  //     kept at one end for two steps running is halved, so that the bracket shrinks
  //     from both sides instead of creeping up on the crossing from one);
  //  3. done when |log(‖r‖²/target)| ≤ 0.01, or after @p most_evaluations.
  // A search that ends at the range's end, or before it met the target, says so in
  // its text, as the periodic rule does.
  struct ResidualSearch
  {
    double lambda;
    int evaluations;       // of @p residual_norm2
    std::string how;       // "at lambda = 0.0281 after 4 solves", or where it stopped
    std::string range_end; // as LambdaChoice's
  };

  ResidualSearch find_lambda_where_residual_meets(const std::function<double(double)> &residual_norm2,
                                                  double target, const LambdaRange &range, double start,
                                                  int most_evaluations = 12);
} // namespace step5
