#pragma once
/// @file
/// @brief Reading a matrix from a text file, so students can factorise their own.
///
/// The format is the simplest there is: one row of the matrix per line, numbers
/// separated by blanks; empty lines and lines starting with '#' are skipped.
/// @code
/// # a 3 x 3 matrix that is symmetric but not positive definite
///  4  2  0
///  2  1  3
///  0  3  5
/// @endcode

#include <lab/matrix.h>

#include <string>

namespace lab
{
  /// Reads the matrix in @p path as numbers of type T. Throws lab::bad_input (see
  /// lab/program.h) with a one-line message naming the file and line when it cannot be
  /// opened, a token is not a number, a number is infinite, NaN or too large for T
  /// (1e39 fits in a double, not in a float), or the rows have different lengths.
  template <typename T>
  Matrix<T> read_matrix(const std::string &path);

  /// read_matrix for the factorisations that need a symmetric matrix (Cholesky): also
  /// throws lab::bad_input when the matrix is not square or not symmetric, naming the
  /// first pair of entries that differ.
  template <typename T>
  Matrix<T> read_symmetric_matrix(const std::string &path);
} // namespace lab
