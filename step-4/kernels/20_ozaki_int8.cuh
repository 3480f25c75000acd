#pragma once
// @sect3{Kernel 20: double precision on the integer tensor cores (the Ozaki scheme II)}
//
// Kernel 19 runs at about 94% of cuBLAS's DGEMM, and DGEMM runs near the FP64 tensor
// cores' peak: in double, the hardware is used up. The same GPU multiplies 8-bit
// integers about 30 times faster (an H200: 1.2 to 1.5 POP/s through cuBLAS, measured,
// against DGEMM's 62 to 65 TFLOP/s), and an integer product is exact: 8-bit times 8-bit
// summed in 32 bits loses nothing while the sum fits. Ozaki, Uchino and Imamura's scheme
// II turns double products into a handful of such exact integer products:
//
// 1. <b>Fixed point.</b> Each row i of op(A) is scaled by a power of two 2^s_i so
//    that its largest entry lies just below 2^K, and rounded to integers:
//    A' = round(D_A A), |a'_ip| ≤ 2^K; each column j of op(B) likewise, B' = round(B D_B).
//    The rounding is the scheme's only error: at most half a unit, 2^-K of the row's
//    largest entry. A' B' is an exact integer matrix, |(A'B')_ij| ≤ k 2^2K.
// 2. <b>Residues.</b> For pairwise coprime moduli m_1, ..., m_N ≤ 256, the residues
//    A' mod m_t and B' mod m_t fit in int8 (as −128..127: any representative will do).
//    Their product on the INT8 tensor cores, in int32, is exact (each term is at most
//    2^14, so k < 2^17 terms cannot overflow), and reduced mod m_t it is (A'B') mod m_t.
// 3. <b>The Chinese remainder theorem</b> rebuilds each entry of A'B' from its N
//    residues, exactly, provided the product of the moduli M = m_1 ⋯ m_N exceeds
//    2 k 2^2K (the entries are signed): x = Σ_t c_t w_t mod M with weights
//    w_t = (M/m_t) ((M/m_t)⁻¹ mod m_t), in 128-bit integers, and the entry is x or
//    x − M. Multiplied by 2^-(s_i + t_j) (exact) and converted to double (one rounding)
//    it is the product.
//
// <b>How many moduli.</b> The check is DGEMM's: every entry within (k + 2) ε of
// (|A||B|)_ij. The rounding of step 1 moves entry (i, j) by at most
// 2^-K α_i Σ_p |b_pj| (α_i the largest |a_ip|), and B's by 2^-K β_j Σ_p |a_ip|. How
// large that is against (|A||B|)_ij depends on the data: for entries of one size it is
// about 2^-K, for a row whose entries span 10^-12 to 10^12 it can be 2^80 times more.
// So the kernel measures it. Rounded down to 7 bits of their row's (column's) largest
// entry, |A| and |B| fit in int8 too, and one more integer product gives a lower bound
// of every (|A||B|)_ij; with the rows' and columns' sums it bounds the ratio
// ρ = max(α_i Σ_p|b_pj|, β_j Σ_p|a_ip|) / (|A||B|)_ij over all entries. Then
// K = log2 ρ + log2(2 / ((k + 1) u)) bits keep every entry within the check, and N is
// the fewest moduli with log2 M > 2K + log2 k + 1. On random matrices that is 13 or 14
// moduli at k = 4096: 14 or 15 integer products (with the bound's) where DGEMM would
// take the time of about 20.
//
// <b>When the scheme does not pay or cannot work</b> the kernel computes the product
// with the course's own double kernel (step4::gemm in double) instead, and says so
// (last_ozaki_report): when the data need more moduli than 128-bit integers can
// rebuild (14 here), as a row spanning many orders of magnitude does; when an input
// holds NaN or infinity (which integers cannot carry; the double kernel propagates
// them); when k ≥ 2^17 (the int32 sums could overflow).
//
// <b>Its cost.</b> Unlike every other launcher of this step, kernel 20 waits for the GPU
// once per product: how many integer products it launches depends on the bound, which
// the host must read. Its memory is N int8 copies of both operands and N int32
// products, kept between calls (release_ozaki_scratch gives them back). The integer
// products are cuBLAS's (cublasGemmEx, INT8 in, INT32 out, with op(A) and op(B) stored
// with k contiguous, the layout its integer kernels want); the scaling, the residues
// and the reconstruction are the kernels of 20_ozaki_int8.cu.

#include "gemm.h"

#include <cuda_runtime.h>

#include <string>

namespace step4
{
  // What kernel 20's last product did: the moduli it used (0 where it fell back to the
  // double kernel), the bits K it kept of each row and column, and why it fell back
  // (empty where it did not).
  struct OzakiReport
  {
    int moduli = 0;
    int bits = 0;
    std::string fell_back;
  };

  // C = α op(A) op(B) + β C in double by the Ozaki scheme II (any shape, both
  // transposes, a lower triangle on request).
  void launch_20_ozaki_int8(const GemmArgs<double> &g, cudaStream_t stream);

  // The same with the last @p moduli_left_out moduli left out of the reconstruction
  // (the planted fault of the tests: an entry rebuilt from too few residues is wrong).
  void ozaki_product(const GemmArgs<double> &g, cudaStream_t stream, int moduli_left_out);

  OzakiReport last_ozaki_report();

  // Frees the memory kernel 20 keeps between calls.
  void release_ozaki_scratch();
} // namespace step4
