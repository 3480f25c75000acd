// @sect3{Checking a product}
//
// Every product of this step, on the CPU or the GPU, is checked the same way: against
// C = α op(A) op(B) + β C computed in double on the host, entry by entry, with an
// error bound that holds for every entry and every order of summation. This file holds
// the problem (its inputs, from fixed seeds), the check and its tolerances.
#pragma once

#include "gemm.h"

#include <lab/matrix.h>

#include <limits>

namespace step4
{
  // One product with its data: A is stored a_rows() x a_cols() (so op(A) is m x k), B
  // is stored b_rows() x b_cols() (op(B) is k x n), and C is the m x n input C (with
  // β = 0 it is never read).
  template <typename T>
  struct GemmProblem
  {
    GemmShape shape;
    T alpha = 1;
    T beta = 0;
    lab::Matrix<T> a, b, c;
  };

  // A problem of the given shape whose A, B and C are uniform in [-1, 1], the same on
  // every machine for the same @p seed. Never zeros or ones: those hide wrong indices.
  // Needs m, n, k >= 1.
  template <typename T>
  GemmProblem<T> random_problem(const GemmShape &shape, T alpha, T beta, unsigned seed);

  // @sect3{The error of one entry}
  //
  // How wrong may a computed entry be? The classical bound for a dot product of length
  // k in floating point arithmetic with unit roundoff u (u = 2⁻²⁴ in float, 2⁻⁵³ in
  // double) is
  // @f[ |\mathrm{fl}(x\cdot y) - x\cdot y| \le \gamma_k\, |x|\cdot|y|,
  //     \qquad \gamma_k = \frac{ku}{1-ku}, @f]
  // whatever the order of the additions (a loop, a tree, partial sums per thread, fused
  // multiply-adds: each product passes through at most k roundings). Scaling by α
  // and adding β C costs two more roundings, so every entry of a GEMM obeys
  // @f[ |\hat C_{ij} - C_{ij}| \le \gamma_{k+2}
  //     \Bigl(|\alpha| \sum_p |\mathrm{op}(A)_{ip}|\,|\mathrm{op}(B)_{pj}|
  //           + |\beta|\,|C_{ij}|\Bigr). @f]
  // The check divides each entry's error by exactly this bracket. The quotient is then
  // at most γ_{k+2} for a correct product of any data, large or small, with or without
  // cancellation, so one tolerance fits every entry, every size and every input. A
  // norm-wise check (‖Ĉ − C‖/‖C‖) would instead let a few wrong small entries hide
  // among large correct ones.
  //
  // The reference is computed in double, so it has an error of its own, γ_{k+2} with
  // u = 2⁻⁵³. For a float product that is 2²⁹ times smaller than the float bound; for a
  // double product it is as large, so the two together are bounded by 2γ_{k+2}. Hence
  // the tolerance gemm_tolerance() below: 2(k+2)u = (k+2)ε, with ε = 2u the machine
  // epsilon. It is rigorous up to the terms of order (ku)² hidden in γ, which are
  // negligible (in float, k = 8192 gives ku ≈ 5·10⁻⁴). Correct code stays far below it:
  // rounding errors of random signs grow like √k, not k.
  //
  // The error returned is the largest quotient over the checked entries. A NaN in a
  // checked entry makes it NaN (a comparison with NaN is false, so a check that took a
  // maximum naively would skip the NaN and pass). Where the bracket is 0 (a zero row of
  // A, β = 0), the exact answer is 0 and must come out exactly: the error is 0 if it
  // does and infinity if it does not.
  //
  // Which entries are checked: every one when m·n <= 512², so small products are
  // checked completely. Larger ones cost O(m n k) to check in full, as much as the
  // product itself; the check then takes @p sample rows and @p sample columns (the
  // first and the last always, the others drawn with a fixed seed) and checks every
  // entry of those rows and columns. A wrong tile, a wrong edge or a wrong row of
  // threads cannot hide from that, at 2·sample/min(m, n) of the full cost.
  template <typename T>
  double gemm_error(const GemmProblem<T> &p, const lab::Matrix<T> &result,
                    int sample = 48);

  // The tolerance of gemm_error for a product in precision T with inner dimension k:
  // (k + 2)·ε = 2(k + 2)u, see above.
  template <typename T>
  double gemm_tolerance(int k)
  {
    return (k + 2) * static_cast<double>(std::numeric_limits<T>::epsilon());
  }

  // The tolerance for a float product on tensor cores in TF32: the inputs are cut to
  // 10 bits of mantissa before they are multiplied (a relative error of at most 2⁻¹⁰
  // each when the extra bits are simply dropped, half that when rounded), so each
  // product x·y carries a relative error of 2·2⁻¹⁰ (to first order) whatever k is. The
  // products are then summed in float, for which the float tolerance (k + 2)·2⁻²³ above
  // leaves room even for an accumulator that truncates instead of rounding, as tensor
  // cores may. Hence 2·2⁻¹⁰ + (k + 2)·2⁻²³: TF32 is about a thousand times less
  // accurate than float for small k, and that is its price, not a bug.
  inline double tf32_tolerance(int k)
  {
    return 2.0 / 1024 + gemm_tolerance<float>(k);
  }

  // The whole reference α op(A) op(B) + β C in double (each entry a loop over p from 0
  // to k - 1). It costs a full product on the CPU: for tests on small sizes.
  template <typename T>
  lab::Matrix<double> reference_gemm(const GemmProblem<T> &p);
} // namespace step4
