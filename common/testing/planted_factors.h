#pragma once
// For the planted tests of the Cholesky checks (step-1's and step-2's): wrong factors of
// the kinds a broken factorisation writes, made from the right one.

#include <lab/matrix.h>

#include <limits>
#include <string>
#include <vector>

namespace lab_test
{
  template <typename T>
  struct PlantedFactor
  {
    std::string fault;
    lab::Matrix<T> factor;
  };

  /// From the right factor @p right (its lower triangle) and the @p tolerance the course
  /// states for it, three wrong ones:
  /// - one entry never written, NaN as a poisoned buffer holds it: the residual is NaN,
  ///   which a check must never pass (lab::Checks: every comparison with NaN is false);
  /// - a factor of zeros: the residual is 1;
  /// - every entry 5 tolerances too large: L Lᵀ is A times (1 + 10 tolerances), a
  ///   residual of ten tolerances, which a check loosened tenfold or more lets through.
  /// The tolerance is the one the course states, spelled out by the test (4 n ε), not
  /// read from the program: a wrong factor made from the program's own tolerance would
  /// move with it, and a tolerance loosened a thousandfold would still fail it.
  template <typename T>
  std::vector<PlantedFactor<T>> planted_factors(const lab::Matrix<T> &right, double tolerance)
  {
    const int n = right.rows();
    lab::Matrix<T> unwritten = right;
    unwritten(n - 1, n / 2) = std::numeric_limits<T>::quiet_NaN();
    lab::Matrix<T> scaled = right;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        scaled(i, j) *= T(1 + 5 * tolerance);
    return {{"an entry never written (NaN)", unwritten},
            {"zeros", lab::Matrix<T>(n, n)},
            {"every entry 5 tolerances too large", scaled}};
  }
} // namespace lab_test
