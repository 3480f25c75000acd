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
// 1. <b>Fixed point.</b> Each row i of op(A) is scaled by the power of two 2^(K − e_i),
//    where 2^(e_i − 1) ≤ max_p |a_ip| < 2^e_i, and rounded to integers:
//    a'_ip = round(a_ip 2^(K − e_i)), |a'_ip| ≤ 2^K; each column j of op(B) likewise.
//    The rounding is the scheme's only error: at most half a unit, 2^(e_i − K − 1).
//    A' B' is an exact integer matrix.
// 2. <b>Residues.</b> For pairwise coprime moduli m_1, ..., m_N ≤ 256, the residues
//    A' mod m_t and B' mod m_t fit in int8 (as −128..127: any representative will do).
//    Their product on the INT8 tensor cores, in int32, is exact (each term is at most
//    2^14, so k < 2^17 terms cannot overflow), and reduced mod m_t it is (A'B') mod m_t.
// 3. <b>The Chinese remainder theorem</b> rebuilds each entry of A'B' from its N
//    residues, exactly, provided the product of the moduli M = m_1 ⋯ m_N exceeds twice
//    the largest |(A'B')_ij| (the entries are signed): x = Σ_t c_t w_t mod M with
//    weights w_t = (M/m_t) ((M/m_t)⁻¹ mod m_t), and the entry is the representative of
//    x between −M/2 and M/2. Multiplied by 2^(e_i + e_j − 2K) (exact) and converted to
//    double (one rounding) it is the product.
//
// <b>How many bits, how many moduli.</b> The check is DGEMM's: every entry within
// (k + 2) ε of (|A||B|)_ij, which leaves the kernel DGEMM's own bound, (k + 2) u. Write
// s_i = Σ_p |a_ip| / 2^e_i and t_j = Σ_p |b_pj| / 2^e_j for the lines' spreads (between
// 1/2 and k). The rounding of step 1 moves entry (i, j) by at most
// 2^(e_i + e_j − K − 1) (s_i + t_j + k 2^(−K−1)). How large that is against
// (|A||B|)_ij depends on the data: for entries of one size it is about 2^-K, for a row
// whose entries span 10^-12 to 10^12 it can be 2^80 times more. So the kernel measures
// it. ⌊|a_ip| 2^(7 − e_i)⌋ is an integer from 0 to 127, a lower bound of |a_ip| in units
// of 2^(e_i − 7), and so fits in int8; one more integer product of these magnitudes,
// L, bounds every (|A||B|)_ij from below by 2^(e_i + e_j − 14) L_ij. With
// ρ = max_ij 2^14 (s_i + t_j) / L_ij the error of every entry is at most
// 2^(−K−1) ρ (1 + k 2^−K) times its (|A||B|)_ij, and K is the fewest bits that keep
// this within (k + 2 − r) u, r being the roundings that follow (the conversion, α,
// β C). The products are bounded too: |(A'B')_ij| ≤ 2^K Σ_p |b'_pj|
// ≤ 2^2K (t_j + k 2^(−K−1)), and as much with s_i, so N is the fewest moduli with
// M > 2^(2K+1) (min(max s_i, max t_j) + k 2^(−K−1)). An entry whose lines share no
// nonzero position is an exact zero in any scheme and needs no bound (L_ij = 0 there
// too; one more integer product, of the lines' nonzero patterns, tells such entries
// apart from those whose terms are all below the magnitudes' 7 bits, which make the
// kernel fall back: largest_ratio in 20_ozaki_int8.cu). On random matrices that is 13
// moduli for k from 1000 to 16384: 14 integer products with the bound's, where DGEMM
// would take the time of about 25.
//
// <b>When the scheme does not pay or cannot work</b> the kernel computes the product
// with the course's own double kernel (step4::gemm in double) instead, and says so
// (last_ozaki_report): when the data need more moduli than the reconstruction can
// rebuild (14 here) or more than 54 bits (the residues' range), as a row spanning many
// orders of magnitude does; when an input
// holds NaN or infinity (which integers cannot carry; the double kernel propagates
// them); when k ≥ 2^17 (the int32 sums could overflow); inside a CUDA graph's capture
// (see below); where the GPU's free memory cannot hold its copies.
//
// <b>Its cost.</b> Unlike every other launcher of this step, kernel 20 waits for the GPU
// once per product (twice where the patterns' product is needed): how many integer
// products it launches depends on the bound, which the host must read. Its memory is
// room for 14 int8 copies of both operands and 14 int32 products, taken before the
// bound says how many are needed and kept between calls (release_ozaki_scratch gives
// it back); where that would pass 24 GiB, C is computed tile by tile. The integer
// products are cuBLAS's (cublasGemmEx, INT8 in, INT32 out, with op(A) and op(B) stored
// with k contiguous, the layout its integer kernels want); the scaling, the residues
// and the reconstruction are the kernels of 20_ozaki_int8.cu, on the exact arithmetic
// of ozaki_arithmetic.h.

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

  // What the tests may change: the last @p moduli_left_out moduli left out of the
  // reconstruction (the planted fault: an entry rebuilt from too few residues is
  // wrong), and the side of the tiles of C (0: kernel 20's own choice, which takes
  // one tile up to n = 16384; a small one tries the tiling on small matrices).
  struct OzakiOptions
  {
    int moduli_left_out = 0;
    int tile_side = 0;
  };

  // Kernel 20 with those options.
  void ozaki_product(const GemmArgs<double> &g, cudaStream_t stream, const OzakiOptions &options);

  OzakiReport last_ozaki_report();

  // Frees the memory kernel 20 keeps between calls.
  void release_ozaki_scratch();
} // namespace step4
