#pragma once
/// @file
/// @brief lab::Matrix: a dense row-major matrix on the host.
///
/// Entry (r, c) lives at `data()[r * ld() + c]`. The leading dimension `ld` is the
/// distance between the starts of two rows; it is at least `cols()` and larger when
/// rows are padded (for alignment, or to hold a matrix inside a bigger one). The same
/// layout is used on the device, so a matrix is copied there as one block of
/// `rows() * ld()` numbers.

#include <cstddef>
#include <stdexcept>
#include <vector>

namespace lab
{
  /// A dense row-major matrix of float or double with a leading dimension.
  template <typename T>
  class Matrix
  {
  public:
    /// An empty 0 x 0 matrix.
    Matrix() = default;

    /// A @p rows x @p cols matrix of zeros; @p ld = 0 means ld = cols.
    Matrix(int rows, int cols, int ld = 0)
      : rows_(rows), cols_(cols), ld_(ld == 0 ? cols : ld)
    {
      if (rows < 0 || cols < 0 || ld_ < cols)
        throw std::invalid_argument("lab::Matrix: need rows, cols >= 0 and ld >= cols");
      values_.assign(static_cast<std::size_t>(rows_) * ld_, T(0));
    }

    /// Number of rows.
    int rows() const { return rows_; }
    /// Number of columns.
    int cols() const { return cols_; }
    /// Leading dimension: distance in elements between the starts of two rows.
    int ld() const { return ld_; }
    /// Number of stored elements, rows() * ld().
    std::size_t size() const { return values_.size(); }

    /// Entry (r, c), 0-based.
    T &operator()(int r, int c) { return values_[static_cast<std::size_t>(r) * ld_ + c]; }
    /// Entry (r, c), 0-based.
    const T &operator()(int r, int c) const
    {
      return values_[static_cast<std::size_t>(r) * ld_ + c];
    }

    /// The stored elements, row by row (rows() * ld() of them).
    T *data() { return values_.data(); }
    /// The stored elements, row by row (rows() * ld() of them).
    const T *data() const { return values_.data(); }

  private:
    int rows_ = 0;
    int cols_ = 0;
    int ld_ = 0;
    std::vector<T> values_;
  };

  /// The same matrix in another number type (e.g. double to float), same layout.
  template <typename To, typename From>
  Matrix<To> convert(const Matrix<From> &m)
  {
    Matrix<To> result(m.rows(), m.cols(), m.ld());
    for (std::size_t i = 0; i < m.size(); ++i)
      result.data()[i] = static_cast<To>(m.data()[i]);
    return result;
  }

  /// The transpose: a cols x rows matrix with entry (c, r) = m(r, c).
  template <typename T>
  Matrix<T> transposed(const Matrix<T> &m)
  {
    Matrix<T> result(m.cols(), m.rows());
    for (int r = 0; r < m.rows(); ++r)
      for (int c = 0; c < m.cols(); ++c)
        result(c, r) = m(r, c);
    return result;
  }
} // namespace lab
