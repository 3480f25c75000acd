// The blur of a PSF field on the CPU (see varying_blur.h).
#include "model/varying_blur.h"

#include <lab/compare.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace step5
{
  namespace
  {
    void require_image_of(const SampledField &field, const lab::Matrix<double> &image, const char *who)
    {
      if (image.rows() != field.image_rows || image.cols() != field.image_cols)
        throw std::invalid_argument(std::string("step5::") + who + ": the image is not of the field's size");
    }
  } // namespace

  // @sect3{The blur and its transpose}
  //
  // The loops of blur_model.cpp, with p_q for the pixel q of g: in the blur q is the
  // pixel computed, in the transpose the pixel read.
  lab::Matrix<double> blur(const SampledField &field, const lab::Matrix<double> &image)
  {
    require_image_of(field, image, "blur");
    const int rows = image.rows(), cols = image.cols();
    lab::Matrix<double> blurred(rows, cols);
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        {
          const double *taps = field.taps_of(r, c);
          double sum = 0;
          for (int u = 0; u < field.rows; ++u)
            {
              const int source_row = r - u + field.centre_row;
              if (source_row < 0 || source_row >= rows)
                continue;
              for (int v = 0; v < field.cols; ++v)
                {
                  const int source_col = c - v + field.centre_col;
                  if (source_col >= 0 && source_col < cols)
                    sum += taps[u * field.cols + v] * image(source_row, source_col);
                }
            }
          blurred(r, c) = sum;
        }
    return blurred;
  }

  lab::Matrix<double> blur_transpose(const SampledField &field, const lab::Matrix<double> &image)
  {
    require_image_of(field, image, "blur_transpose");
    const int rows = image.rows(), cols = image.cols();
    lab::Matrix<double> result(rows, cols);
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        {
          double sum = 0;
          for (int u = 0; u < field.rows; ++u)
            {
              const int source_row = r + u - field.centre_row;
              if (source_row < 0 || source_row >= rows)
                continue;
              for (int v = 0; v < field.cols; ++v)
                {
                  const int source_col = c + v - field.centre_col;
                  if (source_col >= 0 && source_col < cols)
                    sum += field.taps_of(source_row, source_col)[u * field.cols + v] * image(source_row, source_col);
                }
            }
          result(r, c) = sum;
        }
    return result;
  }

  // @sect3{H row by row}
  //
  // Row q of H is pixel q's PSF, each weight in the column of the pixel of f it
  // multiplies: what the dense pipelines need, built here on the CPU for the tests
  // and on the GPU by blur_gpu.h's kernels, which read each row's weights through
  // psf_view.h.
  template <typename T>
  lab::Matrix<T> blur_matrix(const SampledField &field)
  {
    const int rows = field.image_rows, cols = field.image_cols, n = rows * cols;
    lab::Matrix<T> h(n, n);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        {
          const double *taps = field.taps_of(r, c);
          for (int u = 0; u < field.rows; ++u)
            for (int v = 0; v < field.cols; ++v)
              {
                const int source_row = r - u + field.centre_row, source_col = c - v + field.centre_col;
                if (source_row >= 0 && source_row < rows && source_col >= 0 && source_col < cols)
                  h(r * cols + c, source_row * cols + source_col) = static_cast<T>(taps[u * field.cols + v]);
              }
        }
    return h;
  }

  template lab::Matrix<float> blur_matrix<float>(const SampledField &);
  template lab::Matrix<double> blur_matrix<double>(const SampledField &);

  // @sect3{The normal matrix of a field}
  //
  // The scatter of blur_model.cpp: every pixel q of g lists the pixels of f it sees,
  // with its own weights p_q, and adds the product of every pair into the stencil.
  NormalStencil normal_matrix_stencil(const SampledField &field, double lambda)
  {
    const int rows = field.image_rows, cols = field.image_cols;
    NormalStencil a;
    a.image_rows = rows;
    a.image_cols = cols;
    a.reach_rows = field.rows - 1;
    a.reach_cols = field.cols - 1;
    a.weights.assign(static_cast<std::size_t>(rows) * cols * a.stencil_rows() * a.stencil_cols(), 0.0);

    struct SeenPixel
    {
      int row, col;
      double weight;
    };
    std::vector<SeenPixel> seen;
    seen.reserve(static_cast<std::size_t>(field.rows) * field.cols);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        {
          const double *taps = field.taps_of(r, c);
          seen.clear();
          for (int u = 0; u < field.rows; ++u)
            for (int v = 0; v < field.cols; ++v)
              {
                const int source_row = r - u + field.centre_row, source_col = c - v + field.centre_col;
                if (source_row >= 0 && source_row < rows && source_col >= 0 && source_col < cols)
                  seen.push_back({source_row, source_col, taps[u * field.cols + v]});
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

  // @sect3{How large HᵀH can be}
  //
  // Row q of |H| holds |p_q|'s weights that land inside the image; each of them adds
  // to the column sum of the pixel it lands on. One pass over the table gives both.
  double normal_matrix_norm_bound(const SampledField &field)
  {
    const int rows = field.image_rows, cols = field.image_cols;
    std::vector<double> column_sums(static_cast<std::size_t>(rows) * cols, 0.0);
    double largest_row = 0;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        {
          const double *taps = field.taps_of(r, c);
          double row_sum = 0;
          for (int u = 0; u < field.rows; ++u)
            for (int v = 0; v < field.cols; ++v)
              {
                const int source_row = r - u + field.centre_row, source_col = c - v + field.centre_col;
                if (source_row >= 0 && source_row < rows && source_col >= 0 && source_col < cols)
                  {
                    const double weight = std::abs(taps[u * field.cols + v]);
                    row_sum += weight;
                    column_sums[static_cast<std::size_t>(source_row) * cols + source_col] += weight;
                  }
              }
          largest_row = lab::nan_max(largest_row, row_sum);
        }
    double largest_column = 0;
    for (const double sum : column_sums)
      largest_column = lab::nan_max(largest_column, sum);
    return largest_row * largest_column;
  }

  double backward_error_of(const SampledField &field, const lab::Matrix<double> &b, double lambda,
                           const lab::Matrix<double> &f)
  {
    return backward_error_of(normal_matrix_norm_bound(field), b, blur_transpose(field, blur(field, f)), lambda, f);
  }
} // namespace step5
