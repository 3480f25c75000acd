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
#include <lab/residuals.h>

#include <limits>
#include <string>

namespace step3
{
  // @sect3{The tolerance}
  //
  // Every residual of this step, ‖L X − I‖_F / (‖L‖_F ‖X‖_F) for an inverse and
  // ‖B − A X‖_F / (‖A‖_F ‖X‖_F) for a solve, is bounded by a small multiple of n ε for
  // a stable method on any matrix: the rounding analysis's worst case, every rounding
  // error of a dot product of length n adding up with the same sign. The sweep's
  // matrices are not the worst case, and its residuals are nowhere near it: from n =
  // 256 to 16384 every correct result of every routine, the course's and the vendor's,
  // measured between 10⁻³ ε and 0.3 ε on the H200 (results/nvidia-h200/step-3), and
  // smaller the larger n, since the norms in the denominator grow faster than the
  // rounding errors in the numerator. A wrong result's residual falls with n too, and
  // faster: the CPU inverse with the last term of each dot product left out (an
  // off-by-one, `q < i - 1` for `q < i`) has a residual of 1.7·10⁻⁴ at n = 512 in float
  // and 2.2·10⁻⁵ at 2048, which the bound 4 n ε (2.4·10⁻⁴ and 9.8·10⁻⁴) let through:
  // the program said PASS on it. A tolerance that grows with n becomes, at the sizes
  // students run, a check that cannot fail.
  //
  // So the sweep's tolerance is c·ε with c = 4 at every size: more than ten times the
  // largest correct residual measured (Gauss–Jordan's 0.3 ε in double), and forty
  // times below that wrong inverse at n = 2048 (5.6·10⁻⁶, twelve times, at 4096, the
  // CPU's largest size). The tests plant wrong answers a few tolerances off and check
  // that they FAIL (tests/triangular_cpu_test.cpp).
  constexpr double residual_constant = 4;

  template <typename T>
  double sweep_tolerance()
  {
    return residual_constant * std::numeric_limits<T>::epsilon();
  }

  // A matrix of your own (--matrix) is not the sweep's: nothing is known of how its
  // rounding errors add up, and its check is the rounding analysis's bound c·n·ε,
  // c = 4.
  template <typename T>
  double file_tolerance(int n)
  {
    return lab::tolerance<T>(residual_constant, n);
  }

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
