#pragma once
// @sect3{How a result is judged}
//
// Every computation of the program (a triangular inverse, a solve, a Gauss–Jordan
// inverse, a vendor routine) ends in one verdict, given here so that the tests can feed
// it wrong answers and see it say FAIL (tests/triangular_cpu_test.cpp, "planted: ...").
// The figure is a residual computed on the host in double from what the computation
// wrote (lab/residuals.h), never a number the computation reports about itself; the
// info it reports must be LAPACK's: 0 on an invertible matrix, j + 1 for the first
// unusable pivot j on a singular one.
//
// Before each computation runs, its output and its info are poisoned (every byte 0xFF:
// NaN, and info −1), never left from the one before: a variant that writes nothing
// then shows a NaN residual and info −1, and fails, where it would otherwise inherit
// the previous variant's right answer.

#include <lab/checks.h>

#include <string>

namespace step3
{
  // The tolerance c·n·ε of every residual, c = 4 (lab::tolerance).
  constexpr double residual_constant = 4;

  // How many columns of an n × n inverse its residual is computed from: every one up
  // to n = 2048, 64 picked at random beyond (n² multiply-adds per column on the host).
  inline int residual_columns(int n) { return n <= 2048 ? n : 64; }

  // How many of @p nrhs right-hand sides a solve's residual is computed from: every
  // one while that costs no more than an inverse's check at 2048 (n²·nrhs ≤ 2048³,
  // so all 256 up to n = 4096), 64 picked at random beyond. A wrong column is then
  // caught wherever the host can afford to look at all of them.
  inline int solve_residual_columns(int n, int nrhs)
  {
    return double(n) * n * nrhs <= 2048.0 * 2048 * 2048 ? nrhs : 64;
  }

  // The verdict on a computation on an invertible matrix: info 0 and the residual at
  // most the tolerance (NaN never passes). Records it in @p checks under @p what.
  bool judge(lab::Checks &checks, const std::string &what, int info, double residual, double tolerance);

  // The verdict on a computation on a matrix of your own (--matrix), against the
  // CPU's @p expected info: a different info fails; the same nonzero info (a singular
  // matrix, reported alike by both) fails too, since nothing was inverted; info 0
  // must meet the tolerance.
  bool judge_against_cpu(lab::Checks &checks, const std::string &what, int expected, int info, double residual,
                         double tolerance);

  // The verdict on the thesis' pivoting on the unstable example (gauss_jordan/
  // unstable_example.h), which must fail in the way that example shows: no pivot is
  // exactly zero, so info 0, and the rounding errors swamp the result, a residual of
  // at least @p bound, and finite: NaN (an inverse never written) or ∞ (an overflow)
  // is a different failure, not the one to show.
  bool judge_unstable(lab::Checks &checks, const std::string &what, int info, double residual, double bound);
} // namespace step3
