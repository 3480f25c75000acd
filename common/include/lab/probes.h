#pragma once
/// @file
/// @brief A result checked in n² work instead of n³: Freivalds' probe with a random
/// vector.
///
/// Checking a factor L of A in full means forming L Lᵀ, as much work as the
/// factorisation itself. To check every timed run, not only the last, the course
/// needs something cheaper. In 1977 Rūsiņš Freivalds observed that a product can be
/// checked by multiplying with a random vector: if L Lᵀ ≠ A, then (L Lᵀ − A) x is,
/// for x drawn at random, almost never 0, and forming it takes three matrix-vector
/// products, L(Lᵀx) and A x: n² work. A wrong entry of L shows in the row it lies in.
///
/// In floating point the residual r = A x − L(Lᵀx) is never exactly 0, and the
/// question is whether it is as small as rounding allows. For a Cholesky factor
/// computed by any of the usual orders, A + ΔA = L Lᵀ with
/// |ΔA| ≤ γ_{n+1} |L||Lᵀ| entrywise (γ_k = k u / (1 − k u), u the unit roundoff), so
/// |r_i| ≤ γ_{n+1} (|L|(|Lᵀ||x|))_i in every row i: the probe's error is
/// max_i |r_i| / (|A||x| + |L||Lᵀ||x|)_i, computed in double. For the inverse X of a
/// triangular L it is the residual of L X = I in the direction x,
/// ‖L(Xx) − x‖∞ / ‖|L|(|X||x|)‖∞, normwise: how small the residual is row by row
/// depends on the order in which a method builds X, the norm does not.
///
/// The bound is a worst case, n ε: at n = 2048 in float about 5·10⁻⁴. The probe is
/// made to catch a result that is wrong, not one that is a little inaccurate: a run
/// that returned a stale answer, poison, or another matrix's factor is off by O(1).
/// The full check of a step still judges the accuracy of its last run.
///
/// x has entries in [1, 2), drawn from a seed the code under test cannot know
/// (lab::unpredictable_seed), so no result can be made to pass one particular x.
/// NaN anywhere gives NaN, which no tolerance passes.

#include <lab/matrix.h>

#include <limits>

namespace lab
{
  /// The tolerance of the probes below: 2 (n + 1) ε, the worst-case bound with room
  /// for the probe's own rounding in double (which, for a double result, is of the
  /// same order).
  template <typename T>
  double probe_tolerance(int n)
  {
    return 2.0 * (n + 1) * std::numeric_limits<T>::epsilon();
  }

  /// The probe of a Cholesky factor on the host: max_i |(A x − L(Lᵀx))_i| /
  /// (|A||x| + |L||Lᵀ||x|)_i. L is the lower triangle of @p factor (diagonal included,
  /// whatever lies above it ignored), A the symmetric matrix whose lower triangle
  /// @p a holds.
  template <typename T>
  double cholesky_probe(const Matrix<T> &a, const Matrix<T> &factor);

  /// The same on the device: n × n matrices with leading dimension @p ld, stored by
  /// rows as everywhere in the course.
  template <typename T>
  double cholesky_probe_on_gpu(const T *a, const T *factor, int n, int ld);

  /// The probe of an inverse X of the lower triangular L on the device:
  /// ‖L(Xx) − x‖∞ / ‖|L|(|X||x|)‖∞, from the lower triangles of @p l and @p x
  /// (diagonal included; whatever lies above ignored).
  template <typename T>
  double inverse_probe_on_gpu(const T *l, const T *x, int n, int ld);
} // namespace lab
