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
#include <string>

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
  // The error returned is the largest quotient over the checked entries
  // (lab::entry_error for one entry, lab::nan_max for the largest). A NaN in a checked
  // entry makes it NaN (a comparison with NaN is false, so a check that took a maximum
  // with std::max would skip the NaN and pass). Where the bracket is 0 (a zero row of
  // A, β = 0), the exact answer is 0 and must come out exactly: the error is 0 if it
  // does and infinity if it does not.
  //
  // Which entries are checked: every one when m·n·k <= @p full_check_limit (by default
  // 2³⁰, about a second on the host's cores), so that a single wrong entry cannot hide.
  // A larger product costs as much to check in full as to compute, on the CPU: the
  // program then checks it on the GPU instead, every entry against cuBLAS DGEMM
  // (lab::GemmCheckOnGpu), and this host check samples only where the GPU cannot. It
  // then takes one row in every band of check_band = 16 rows and one column in every
  // band of 16 columns (where in the band is drawn from a fixed seed; the first and
  // the last row and column always) and checks every entry of those rows and columns,
  // at 2/16 of the full cost. Every aligned 16×16 tile of C, and so every tile of
  // every kernel of this step (their tiles are multiples of 16 and start at multiples
  // of them), has one whole row and one whole column of its entries checked: a tile
  // that was never written, or written with the wrong data, cannot hide. A single
  // wrong entry can; gemm_check_coverage() says which check a shape gets, for the
  // program's output.
  constexpr int check_band = 16;
  constexpr double default_full_check_limit = 1073741824.0;

  template <typename T>
  double gemm_error(const GemmProblem<T> &p, const lab::Matrix<T> &result,
                    double full_check_limit = default_full_check_limit);

  // "every entry", or "one row and one column in every 16 (every 16x16 tile seen)":
  // how gemm_error checks a product of this shape.
  std::string gemm_check_coverage(const GemmShape &shape,
                                  double full_check_limit = default_full_check_limit);

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
  lab::Matrix<double> gemm_in_double(const GemmProblem<T> &p);
} // namespace step4
