#include "model/blur_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace step5
{
  // @sect3{The blur and its transpose, pixel by pixel}
  //
  // Both loops read the formulas of blur_model.h directly: for every pixel of the
  // result, every weight of the PSF, and the one pixel of the input it pairs with,
  // skipped when that lies outside the image (the zero boundary). The convolution
  // pairs weight (u, v) with the pixel u − c_r rows above and v − c_c columns to the
  // left; its transpose with the pixel as far below and to the right.
  //
  // Every pixel of the result is a sum of its own, so the rows are shared among the
  // CPU's cores (OpenMP), here and in the model's other loops over an image: the
  // checks of a 12-megapixel photograph apply these several times, and on one core
  // they took over a minute per channel.
  lab::Matrix<double> blur(const Psf &psf, const lab::Matrix<double> &image)
  {
    const int rows = image.rows(), cols = image.cols();
    lab::Matrix<double> blurred(rows, cols);
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        {
          double sum = 0;
          for (int u = 0; u < psf.rows(); ++u)
            {
              const int source_row = r - u + psf.centre_row();
              if (source_row < 0 || source_row >= rows)
                continue;
              for (int v = 0; v < psf.cols(); ++v)
                {
                  const int source_col = c - v + psf.centre_col();
                  if (source_col >= 0 && source_col < cols)
                    sum += psf.taps(u, v) * image(source_row, source_col);
                }
            }
          blurred(r, c) = sum;
        }
    return blurred;
  }

  lab::Matrix<double> blur_transpose(const Psf &psf, const lab::Matrix<double> &image)
  {
    const int rows = image.rows(), cols = image.cols();
    lab::Matrix<double> result(rows, cols);
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        {
          double sum = 0;
          for (int u = 0; u < psf.rows(); ++u)
            {
              const int source_row = r + u - psf.centre_row();
              if (source_row < 0 || source_row >= rows)
                continue;
              for (int v = 0; v < psf.cols(); ++v)
                {
                  const int source_col = c + v - psf.centre_col();
                  if (source_col >= 0 && source_col < cols)
                    sum += psf.taps(u, v) * image(source_row, source_col);
                }
            }
          result(r, c) = sum;
        }
    return result;
  }

  // @sect3{The matrix H, entry by entry}
  //
  // Row i = r·C + c of H is the blur's recipe for pixel (r, c) of g: weight (u, v)
  // sits in the column of the pixel of f it multiplies. Two weights never land on
  // the same entry (the pixel fixes u and v), and every other entry is zero,
  // including those of the weights whose pixel falls outside the image.
  template <typename T>
  lab::Matrix<T> blur_matrix(const Psf &psf, int rows, int cols)
  {
    const int n = rows * cols;
    lab::Matrix<T> h(n, n);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        for (int u = 0; u < psf.rows(); ++u)
          for (int v = 0; v < psf.cols(); ++v)
            {
              const int source_row = r - u + psf.centre_row(), source_col = c - v + psf.centre_col();
              if (source_row >= 0 && source_row < rows && source_col >= 0 && source_col < cols)
                h(r * cols + c, source_row * cols + source_col) = static_cast<T>(psf.taps(u, v));
            }
    return h;
  }

  template lab::Matrix<float> blur_matrix<float>(const Psf &, int, int);
  template lab::Matrix<double> blur_matrix<double>(const Psf &, int, int);

  // @sect3{Assembling the normal matrix from the PSF}
  //
  // (HᵀH)(i, j) = Σ_q H(q, i) H(q, j): a sum over the pixels q of g of the products
  // of the weights with which q sees pixel i and pixel j. Computing it entry by entry
  // this way would visit all n² pairs. Turned around, it costs almost nothing: each
  // pixel q sees at most p.rows·p.cols pixels of f (row q of H), and contributes the
  // product of its two weights to every pair of them. So for each q we list the
  // pixels it sees, with their weights, and add every pair's product into the
  // stencil of the first at the offset of the second.
  //
  // At the border this is automatically right: a pixel q outside the image does not
  // exist, so its products are never added, and the pixels of f that lie outside
  // the image never appear in a list. In the interior, the result is the PSF's
  // autocorrelation, the same stencil for every pixel.
  NormalStencil normal_matrix_stencil(const Psf &psf, int rows, int cols, double lambda)
  {
    NormalStencil a;
    a.image_rows = rows;
    a.image_cols = cols;
    a.reach_rows = psf.rows() - 1;
    a.reach_cols = psf.cols() - 1;
    a.weights.assign(static_cast<std::size_t>(rows) * cols * a.stencil_rows() * a.stencil_cols(), 0.0);

    struct SeenPixel
    {
      int row, col;
      double weight;
    };
    std::vector<SeenPixel> seen;
    seen.reserve(static_cast<std::size_t>(psf.rows()) * psf.cols());
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        {
          seen.clear();
          for (int u = 0; u < psf.rows(); ++u)
            for (int v = 0; v < psf.cols(); ++v)
              {
                const int source_row = r - u + psf.centre_row(), source_col = c - v + psf.centre_col();
                if (source_row >= 0 && source_row < rows && source_col >= 0 && source_col < cols)
                  seen.push_back({source_row, source_col, psf.taps(u, v)});
              }
          for (const SeenPixel &i : seen)
            for (const SeenPixel &j : seen)
              a.at(i.row, i.col, j.row - i.row, j.col - i.col) += i.weight * j.weight;
        }

    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        a.at(r, c, 0, 0) += lambda;
    return a;
  }

  // @sect3{Applying the stencil}
  //
  // Row i of A x visits the stencil of pixel i, clipped to the image: the offsets
  // whose pixel lies outside are skipped (their weights are zero anyway). Each row
  // of the stencil meets a contiguous piece of a row of x.
  double apply_row(const NormalStencil &a, const lab::Matrix<double> &x, int r, int c)
  {
    const int first_dr = std::max(-a.reach_rows, -r), last_dr = std::min(a.reach_rows, a.image_rows - 1 - r);
    const int first_dc = std::max(-a.reach_cols, -c), last_dc = std::min(a.reach_cols, a.image_cols - 1 - c);
    double sum = 0;
    for (int dr = first_dr; dr <= last_dr; ++dr)
      {
        const double *weights = &a.weights[a.index(r, c, dr, first_dc)];
        const double *pixels = &x(r + dr, c + first_dc);
        for (int k = 0; k <= last_dc - first_dc; ++k)
          sum += weights[k] * pixels[k];
      }
    return sum;
  }

  lab::Matrix<double> apply(const NormalStencil &a, const lab::Matrix<double> &x)
  {
    if (x.rows() != a.image_rows || x.cols() != a.image_cols)
      throw std::invalid_argument("step5::apply: the image is not of the stencil's size");
    lab::Matrix<double> y(a.image_rows, a.image_cols);
#pragma omp parallel for schedule(static)
    for (int r = 0; r < a.image_rows; ++r)
      for (int c = 0; c < a.image_cols; ++c)
        y(r, c) = apply_row(a, x, r, c);
    return y;
  }

  double norm(const lab::Matrix<double> &x)
  {
    double sum = 0;
    for (int r = 0; r < x.rows(); ++r)
      for (int c = 0; c < x.cols(); ++c)
        sum += x(r, c) * x(r, c);
    return std::sqrt(sum);
  }

  double backward_error_of(const Psf &psf, const lab::Matrix<double> &b, const lab::Matrix<double> &m_f,
                           double lambda, const lab::Matrix<double> &f)
  {
    return backward_error_of(absolute_sum(psf) * absolute_sum(psf), b, m_f, lambda, f);
  }

  double backward_error_of(double m_norm_bound, const lab::Matrix<double> &b, const lab::Matrix<double> &m_f,
                           double lambda, const lab::Matrix<double> &f)
  {
    lab::Matrix<double> residual(f.rows(), f.cols());
    for (int r = 0; r < f.rows(); ++r)
      for (int c = 0; c < f.cols(); ++c)
        residual(r, c) = b(r, c) - m_f(r, c) - lambda * f(r, c);
    const double a_norm = m_norm_bound + lambda;
    return norm(residual) / (a_norm * norm(f) + norm(b));
  }
} // namespace step5
