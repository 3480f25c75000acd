#pragma once
/// @file
/// @brief Test matrices with known properties, from fixed seeds.
///
/// A check is only as good as its input. A matrix of ones or zeros hides wrong
/// indexing (every entry looks like every other) and unwritten outputs; a random
/// matrix of unknown conditioning makes it impossible to say how large an error may
/// be. Each generator here makes random entries from a seed (the same matrix on every
/// machine and every run) with a property the checks rely on.

#include <lab/matrix.h>

#include <cstdint>

namespace lab
{
  /// A symmetric positive definite n x n matrix whose 2-norm condition number is
  /// exactly @p condition: A = Q D Qᵀ, with eigenvalues D spread geometrically from 1
  /// down to 1/condition and Q orthogonal (a product of random Householder
  /// reflections). Full (both triangles stored). Costs O(n²).
  template <typename T>
  Matrix<T> random_spd(int n, double condition, std::uint64_t seed);

  /// The 2011 course's test matrix: A = L Lᵀ with L(r, c) = (r + 2)(c + 2) for
  /// c <= r, so that the exact Cholesky factor is known. Its entries grow like n⁵ and
  /// it is very badly conditioned: fine to check a small factorisation, useless for
  /// timing accuracy at large n.
  template <typename T>
  Matrix<T> course_2011_spd(int n);

  /// The exact Cholesky factor of course_2011_spd(n): lower triangle (r + 2)(c + 2),
  /// zeros above the diagonal.
  template <typename T>
  Matrix<T> course_2011_factor(int n);

  /// A general (non-symmetric) n x n matrix, strictly diagonally dominant by rows:
  /// off-diagonal entries uniform in [-1, 1], each diagonal entry larger than the sum
  /// of the magnitudes of its row's others (by 1 to 2), with a random sign. It is
  /// therefore invertible, and Gaussian elimination needs no pivoting.
  template <typename T>
  Matrix<T> random_diagonally_dominant(int n, std::uint64_t seed);

  /// A well-conditioned lower triangular n x n matrix: diagonal uniform in [1, 2],
  /// entries below it uniform in [-1, 1] / n, zeros above.
  template <typename T>
  Matrix<T> random_lower_triangular(int n, std::uint64_t seed);

  /// A rows x cols matrix with entries uniform in [-1, 1].
  template <typename T>
  Matrix<T> random_matrix(int rows, int cols, std::uint64_t seed);
} // namespace lab
