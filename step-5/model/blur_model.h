#pragma once
// @sect3{The blur model, stated exactly}
//
// The true image f and the recorded image g have the same size, R × C pixels. Each
// pixel of f spreads its brightness over its neighbours by the PSF's picture, centred
// on it; g collects what lands on each pixel:
// @f[ g(r, c) = \sum_{u, v} p(u, v)\, f(r - u + c_r,\; c - v + c_c), @f]
// a convolution (the PSF is flipped as it slides over f), with (c_r, c_c) the PSF's
// centre (psf.h). Pixels outside the image are zero: nothing outside the picture
// shines into it (the zero boundary). For a PSF that is symmetric under a half turn
// about its centre pixel (an odd-sized Gaussian or box, the sharpening filter,
// MATLAB's motion blur) convolution and correlation are the same; for a trail or an
// even-sized PSF they are not, and a PSF file is read as the picture of a point, so
// the convolution form is the one that matches it.
//
// Stacking both images row by row into vectors of n = R·C entries (pixel (r, c) is
// entry r·C + c, as the thesis does), the model is linear, g = H f with an n × n
// matrix H. Row i of H holds the weights with which the pixels of f reach pixel i of
// g: at most rows·cols of them, so H is sparse, and banded (the nonzeros of row i lie
// within (p.rows − 1)·C + p.cols − 1 of the diagonal). Its transpose, applied to an
// image, is the correlation with the same PSF (every weight sent back where it came
// from): Hᵀ g(r, c) = Σ p(u, v) g(r + u − c_r, c + v − c_c).
//
// The functions here are the CPU reference of the model: the convolution and its
// transpose pixel by pixel, the matrix H entry by entry, and the normal matrix
// A = HᵀH + λI as a stencil. The GPU code of this step is checked against them.

#include "model/psf.h"

#include <lab/matrix.h>

#include <vector>

namespace step5
{
  // g = H f: the convolution above, zero boundary. The result has f's size.
  lab::Matrix<double> blur(const Psf &psf, const lab::Matrix<double> &image);

  // Hᵀ g: the correlation with the same PSF, zero boundary.
  lab::Matrix<double> blur_transpose(const Psf &psf, const lab::Matrix<double> &image);

  // The n × n matrix H (n = rows·cols, row-major, zeros outside the taps) for images
  // of rows × cols pixels.
  template <typename T>
  lab::Matrix<T> blur_matrix(const Psf &psf, int rows, int cols);

  // @sect3{The normal matrix as a stencil}
  //
  // A = HᵀH + λI couples pixel i with pixel j only when some pixel of g sees both,
  // that is, when they are less than p.rows rows and p.cols columns apart. So row i of
  // A is a (2·p.rows − 1) × (2·p.cols − 1) stencil centred on pixel i, whose weights
  // are the PSF's autocorrelation except near the image's border, where the pixels of
  // g that would see both lie outside the image and are missing. This stores, for
  // every pixel, its whole stencil: n · (2p.rows − 1)(2p.cols − 1) numbers instead of
  // n², entry by entry equal to the dense HᵀH + λI.
  struct NormalStencil
  {
    int image_rows = 0, image_cols = 0;
    int reach_rows = 0, reach_cols = 0; // p.rows − 1, p.cols − 1: the offsets go from −reach to +reach
    std::vector<double> weights;        // pixel-major: the stencil of pixel i, row by row

    int stencil_rows() const { return 2 * reach_rows + 1; }
    int stencil_cols() const { return 2 * reach_cols + 1; }
    // Where A(i, j) is kept in weights, for pixel i = (r, c) and pixel j = (r + dr,
    // c + dc), |dr| ≤ reach_rows, |dc| ≤ reach_cols.
    long index(int r, int c, int dr, int dc) const
    {
      const long pixel = static_cast<long>(r) * image_cols + c;
      return (pixel * stencil_rows() + dr + reach_rows) * stencil_cols() + dc + reach_cols;
    }
    // A(i, j) (zero where j is outside the image).
    double at(int r, int c, int dr, int dc) const { return weights[index(r, c, dr, dc)]; }
    double &at(int r, int c, int dr, int dc) { return weights[index(r, c, dr, dc)]; }
  };

  NormalStencil normal_matrix_stencil(const Psf &psf, int rows, int cols, double lambda);

  // y = A x with the stencil (x and y images of the stencil's size).
  lab::Matrix<double> apply(const NormalStencil &a, const lab::Matrix<double> &x);

  // One entry of A x: row (r, c) of A times x, the left-hand side of the equation
  // that Gauss–Seidel (gauss_seidel.h) solves for pixel (r, c).
  double apply_row(const NormalStencil &a, const lab::Matrix<double> &x, int r, int c);

  // ‖x‖, the Euclidean norm of an image read as the vector of its pixels.
  double norm(const lab::Matrix<double> &x);

  // @sect3{How well an image solves its equations}
  //
  // The backward error of f for equations (M + λI) f = b, given M f:
  // @f[ \eta = \frac{\|b - M f - \lambda f\|}{(\|p\|_1^2 + \lambda)\,\|f\| + \|b\|}, @f]
  // with ‖p‖₁² a bound on ‖M‖ for every M of this step (HᵀH, the thesis' HHᵀ, and the
  // FFT filters' periodic CᵀC). Every method is checked by it, computed here in double
  // from its image, never from what the method reports about itself (report/checks.h).
  // NaN in f gives NaN.
  double backward_error_of(const Psf &psf, const lab::Matrix<double> &b, const lab::Matrix<double> &m_f,
                           double lambda, const lab::Matrix<double> &f);

  // The same with the bound on ‖M‖ given, @p m_norm_bound in place of ‖p‖₁² (a PSF
  // field's: varying_blur.h).
  double backward_error_of(double m_norm_bound, const lab::Matrix<double> &b, const lab::Matrix<double> &m_f,
                           double lambda, const lab::Matrix<double> &f);
} // namespace step5
