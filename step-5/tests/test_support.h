#pragma once
// What step-5's tests share: PSFs written out by hand, and small checks.
#include "model/blur_model.h"
#include "model/psf.h"
#include "model/psf_field.h"

#include <cholesky_cpu.h> // step-1: the CPU Cholesky

#include <lab/compare.h>
#include <lab/matrix.h>
#include <lab/program.h>
#include <lab/random.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace step5_test
{
  using step5::Psf;

  // A PSF from its rows (row 0 on top), as a PSF file would give it.
  inline Psf psf_of(const std::vector<std::vector<double>> &rows, const std::string &name)
  {
    Psf psf{lab::Matrix<double>(int(rows.size()), int(rows[0].size())), name};
    for (int u = 0; u < psf.rows(); ++u)
      for (int v = 0; v < psf.cols(); ++v)
        psf.taps(u, v) = rows[u][v];
    return psf;
  }

  // Odd, even and non-square shapes, none symmetric, so that a flipped or shifted
  // weight shows up.
  inline std::vector<Psf> shape_test_psfs()
  {
    return {psf_of({{1.0}}, "1x1"),
            psf_of({{0.1, 0.2}, {0.3, 0.4}}, "2x2"),
            psf_of({{0.0, 0.1, 0.05}, {0.2, 0.3, 0.1}, {0.05, 0.15, 0.05}}, "3x3"),
            psf_of({{0.1, 0.2, 0.3, 0.05, 0.02}, {0.03, 0.1, 0.05, 0.1, 0.05}}, "2x5"),
            psf_of({{0.1, 0.2, 0.0}, {0.05, 0.3, 0.1}, {0.02, 0.04, 0.06}, {0.03, 0.05, 0.05}}, "4x3"),
            psf_of({{0.01, 0.02, 0.03, 0.04, 0.05},
                    {0.06, 0.07, 0.08, 0.09, 0.10},
                    {0.11, 0.12, 0.13, 0.14, 0.15},
                    {0.16, 0.17, 0.18, 0.19, 0.20},
                    {0.21, 0.22, 0.23, 0.24, 0.25}},
                   "5x5")};
  }

  // A PSF field that gives every pixel of a rows × cols image @p psf, but stored as a
  // field that varies (a table of every pixel's weights, stride rows·cols), so that
  // the field's own code runs on it: it must give what the invariant code gives.
  inline step5::SampledField repeated_field(const Psf &psf, int rows, int cols)
  {
    step5::SampledField field = step5::sample_field(step5::constant_field(psf), rows, cols);
    const std::vector<double> one = field.taps;
    field.pixel_stride = static_cast<long>(one.size());
    field.taps.clear();
    for (int pixel = 0; pixel < rows * cols; ++pixel)
      field.taps.insert(field.taps.end(), one.begin(), one.end());
    return field;
  }

  // The field with every weight replaced by its magnitude (where its normal matrix
  // has a zero, every product that entry sums is zero).
  inline step5::SampledField field_magnitudes(step5::SampledField field)
  {
    for (double &tap : field.taps)
      tap = std::abs(tap);
    return field;
  }

  // The sum of a PSF's weights.
  inline double sum_of(const Psf &psf)
  {
    double sum = 0;
    for (int u = 0; u < psf.rows(); ++u)
      for (int v = 0; v < psf.cols(); ++v)
        sum += psf.taps(u, v);
    return sum;
  }

  // |a − b| ≤ relative · max(|a|, |b|).
  inline bool nearly_equal(double a, double b, double relative)
  {
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
  }

  inline bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

  // The message of the lab::bad_input that @p f throws, or "<no exception>".
  template <typename F>
  std::string refusal_of(F &&f)
  {
    try
      {
        f();
      }
    catch (const lab::bad_input &refusal)
      {
        return refusal.what();
      }
    return "<no exception>";
  }

  using Image = lab::Matrix<double>;

  // An image of random pixels in [0, 1), from a fixed seed.
  inline Image random_image(int rows, int cols, std::uint64_t seed)
  {
    lab::Random random(seed);
    Image image(rows, cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        image(r, c) = random.uniform(0, 1);
    return image;
  }

  // The dense n × n matrix A = HᵀH + λI of a stencil (blur_model.h), entry by entry.
  inline Image dense_normal_matrix(const step5::NormalStencil &a)
  {
    const int rows = a.image_rows, cols = a.image_cols, n = rows * cols;
    Image dense(n, n);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        for (int dr = -a.reach_rows; dr <= a.reach_rows; ++dr)
          for (int dc = -a.reach_cols; dc <= a.reach_cols; ++dc)
            if (r + dr >= 0 && r + dr < rows && c + dc >= 0 && c + dc < cols)
              dense(r * cols + c, (r + dr) * cols + c + dc) = a.at(r, c, dr, dc);
    return dense;
  }

  // max |a − b| over the pixels; NaN when any pixel is NaN (lab/compare.h), so that
  // a pixel never written (poisoned) fails every comparison with a tolerance.
  inline double max_difference(const Image &a, const Image &b)
  {
    REQUIRE(a.rows() == b.rows());
    REQUIRE(a.cols() == b.cols());
    double largest = 0;
    for (int r = 0; r < a.rows(); ++r)
      for (int c = 0; c < a.cols(); ++c)
        largest = lab::nan_max(largest, std::abs(a(r, c) - b(r, c)));
    return largest;
  }

  inline double dot(const Image &a, const Image &b)
  {
    double sum = 0;
    for (int r = 0; r < a.rows(); ++r)
      for (int c = 0; c < a.cols(); ++c)
        sum += a(r, c) * b(r, c);
    return sum;
  }

  // An image as the n × 1 vector of its pixels, row by row, and back.
  inline Image stacked(const Image &image)
  {
    Image vector(image.rows() * image.cols(), 1);
    for (int r = 0; r < image.rows(); ++r)
      for (int c = 0; c < image.cols(); ++c)
        vector(r * image.cols() + c, 0) = image(r, c);
    return vector;
  }

  inline Image unstacked(const Image &vector, int rows, int cols)
  {
    Image image(rows, cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        image(r, c) = vector(r * cols + c, 0);
    return image;
  }

  // The dense products of the small oracles (matrices of a few hundred rows).
  inline Image product(const Image &a, const Image &b)
  {
    Image c(a.rows(), b.cols());
    for (int i = 0; i < a.rows(); ++i)
      for (int k = 0; k < a.cols(); ++k)
        for (int j = 0; j < b.cols(); ++j)
          c(i, j) += a(i, k) * b(k, j);
    return c;
  }

  // The n × n matrix of a linear operation on rows × cols images (n = rows·cols):
  // column j is the operation applied to the image whose pixel j is one and the
  // others zero. The tests build the blur's and the periodic blur's matrices so.
  template <typename Operation>
  Image matrix_of(Operation operation, int rows, int cols)
  {
    const int n = rows * cols;
    Image matrix(n, n);
    Image unit(rows, cols);
    for (int j = 0; j < n; ++j)
      {
        unit(j / cols, j % cols) = 1;
        const Image column = stacked(operation(unit));
        unit(j / cols, j % cols) = 0;
        for (int i = 0; i < n; ++i)
          matrix(i, j) = column(i, 0);
      }
    return matrix;
  }

  // Solves A X = B for a symmetric positive definite A, every column of B: step-1's
  // Cholesky A = LLᵀ, then L Y = B and Lᵀ X = Y by substitution.
  inline Image cholesky_solve(Image a, Image b)
  {
    REQUIRE(step1::cholesky_cpu(a) == 0);
    const int n = a.rows();
    for (int col = 0; col < b.cols(); ++col)
      {
        for (int i = 0; i < n; ++i)
          {
            for (int k = 0; k < i; ++k)
              b(i, col) -= a(i, k) * b(k, col);
            b(i, col) /= a(i, i);
          }
        for (int i = n - 1; i >= 0; --i)
          {
            for (int k = i + 1; k < n; ++k)
              b(i, col) -= a(k, i) * b(k, col);
            b(i, col) /= a(i, i);
          }
      }
    return b;
  }

  // The exact solution (a dense Cholesky solve in double) of (M + λI) f = b for a
  // symmetric positive semidefinite n × n matrix M and λ > 0, b and f rows × cols
  // images: the oracle of every filter and formula the tests check against its own
  // equations (M = CᵀC of the periodic blur, HHᵀ of the thesis' formula).
  inline Image regularised_solution(Image m, double lambda, const Image &b)
  {
    for (int i = 0; i < m.rows(); ++i)
      m(i, i) += lambda;
    return unstacked(cholesky_solve(m, stacked(b)), b.rows(), b.cols());
  }

  // MᵀM, and M Mᵀ, of a dense matrix.
  inline Image gram(const Image &m) { return product(lab::transposed(m), m); }
  inline Image outer_gram(const Image &m) { return product(m, lab::transposed(m)); }
} // namespace step5_test
