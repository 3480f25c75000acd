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
// transform without normalisation: Σ|x|² = (1/n) Σ|x̂|²). The periodic model is wrong
// near the edges, as the FFT filter's PSNR shows, so it does not restore the image
// here: the restoration still solves the exact zero-boundary equations. It only
// chooses λ, and λ only needs to be about right: the error of the restoration changes
// slowly with λ near its minimum (a factor 2 in λ costs a fraction of a dB), and the
// wrap-around touches only a strip of PSF width along the edges, a small part of the
// sums. An image that is black along its border, as the phantom is from 128 × 128
// pixels up, is even blurred identically by the two models. Only |p̂_k|² enters:
// moving or mirroring the PSF changes the phase of p̂, not the choice of λ.
//
// Both rules search λ in [10⁻¹⁰, 10²]. For a nonnegative PSF that sums to 1,
// |p̂_k|² ≤ 1, so a λ of 100 damps every frequency to almost nothing. 10⁻¹⁰ lies far
// below what the noise of any image here calls for (at σ = 0.01 both rules choose
// λ between 10⁻³ and 10⁻²), and there HᵀH + λI has a condition number near 10¹⁰,
// beyond what this step's float solves can use.

#include "psf.h"

#include <lab/matrix.h>

#include <complex>
#include <string>
#include <vector>

namespace step5
{
  constexpr double smallest_lambda = 1e-10;
  constexpr double largest_lambda = 1e2;

  // The λ chosen, and how, in words, for the program's output: "generalised
  // cross-validation (periodic model): G smallest at lambda = 0.00233 in [1e-10,
  // 100]".
  struct LambdaChoice
  {
    double lambda;
    std::string how;
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
    double pixels() const { return static_cast<double>(psf_power_.size()); }
    // ‖H f_λ − g‖², in pixel space.
    double residual_norm2(double lambda) const;
    // trace(I − A(λ)).
    double residual_trace(double lambda) const;
    // G(λ).
    double gcv(double lambda) const;

  private:
    std::vector<double> psf_power_;
    std::vector<double> image_power_;
  };

  // The λ in [smallest_lambda, largest_lambda] with the smallest G(λ).
  LambdaChoice choose_lambda_by_gcv(const Psf &psf, const lab::Matrix<double> &g);

  // The λ with ‖H f_λ − g‖² = τ² n σ², for the noise's standard deviation σ per pixel;
  // refused (lab::bad_input) for σ or τ not a finite number > 0. Where no λ in the
  // range meets the target, the end of the range nearest to it, and the text says so.
  LambdaChoice choose_lambda_by_discrepancy(const Psf &psf, const lab::Matrix<double> &g, double sigma,
                                            double tau = 1);
} // namespace step5
