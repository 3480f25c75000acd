#pragma once
// @sect3{The normal matrix at half the price: a symmetric product}
//
// A = HᵀH is symmetric, and everything that reads it afterwards (step-2's Cholesky,
// cuSOLVER's potrf) reads only its lower triangle. A GEMM computes both triangles,
// 2n³ flops; one triangle needs about half of that. Write P = op(H) (Hᵀ for the
// right normal matrix, H for the thesis' HHᵀ), so that A = P Pᵀ, and cut P's rows in
// two, P = [P₁; P₂]:
// @f[ P P^T = \begin{pmatrix} P_1 P_1^T & \cdot \\ P_2 P_1^T & P_2 P_2^T \end{pmatrix}. @f]
// The block below the diagonal is one GEMM; the two diagonal blocks are the same
// problem again, half the size. Recursing down to blocks of `gram_leaf` rows costs
// n²k (1 + leaf/n) flops for P of n rows and k columns if each leaf computes its whole
// square, instead of 2n²k. A leaf need not: it asks its product for the lower triangle
// only (lab::Output::lower_triangle, which step-2's variant 9 introduced), and step-4's
// kernels 15 and 14 then leave out the tiles above the diagonal, cuBLAS's product
// computes the triangle's tiles in one batched call. A lower-triangle product is the
// same halving taken down to single tiles, so why recurse at all? Because large
// rectangular GEMMs are what every product does best; which leaf pays is measured
// (below). BLAS calls this operation SYRK; here it is written with lab::Gemm, so that
// step-5 runs it on step-4's kernels and on cuBLAS's GEMM alike, and the vendor's own
// `cublas<t>syrk` is the comparison.
//
// The block above the diagonal is never written: whatever the array held there stays,
// except within lab::lower_triangle_overhang of the diagonal, where the leaves' tiles
// on the diagonal may write. All matrices are row-major on the device.

#include "gpu/blur_gpu.h"

#include <lab/cublas_gemm.h>
#include <lab/gemm.h>

namespace step5
{
  // Below this many rows a diagonal block is one lower-triangle product. Measured on
  // an H200, HᵀH for n = k = 16384 and 65536, by leaf (2048 / 4096 / 8192 / no
  // recursion), milliseconds:
  //   step-4's kernels, float:   100.5 / 89.2 / 89.1 / 87.6     5915 / 5739 / 5748 / 5782
  //   step-4's kernels, double:  105.7 / 97.5 / 97.8 / 96.9     6586 / 6379 / 6452 / 6691
  //   cuBLAS's GEMM, float:       88.5 / 88.5 / 82.5 / 83.8     5248 / 5269 / 5211 / 5261
  //   cuBLAS's GEMM, double:      90.1 / 92.4 / 98.7 / 90.5     5264 / 5367 / 5246 / 8550
  // 4096 is within 2% of the best for step-4's kernels everywhere. The whole triangle
  // in one product (no recursion) is as good, except on cuBLAS in double at 65536:
  // its batch of 256 × 256 tiles, each with an inner dimension of 65536, runs at 33
  // TFLOP/s where its large GEMMs run at 53.
  constexpr int gram_leaf = 4096;

  // The lower triangle (with the diagonal) of C = op(H) op(H)ᵀ, H k × n for
  // op = transpose (C = HᵀH, n × n) or n × k for op = none (C = HHᵀ). @p leaf is
  // gram_leaf except in the tests, which make the recursion deep on small matrices.
  template <typename T>
  void lower_gram(const T *h, int ldh, int n, int k, lab::Op op, T *c, int ldc, const lab::Gemm<T> &gemm,
                  cudaStream_t stream, int leaf = gram_leaf);

  // @sect3{The vendor's symmetric product}
  //
  // The vendor's pipeline forms A with cuBLAS's own SYRK (cublasSsyrk / cublasDsyrk),
  // called as a competent cuBLAS user would. SYRK's two transpositions give the same
  // result from H stored two ways: C = HᵀH by trans T from H stored by columns, or by
  // trans N from H stored by rows (which cuBLAS, reading by columns, sees as Hᵀ). They
  // are not equally fast, and which is faster depends on the size. On an H200
  // (results/nvidia-h200/vendor_configurations.txt) trans N was 3–11% faster from
  // n = k = 4096 to 32768, and trans T twice as fast at 65536, a 256² image (5.7 s
  // against 11.1). So the vendor's pipeline builds H by rows below 65536 and by columns
  // from there on (blur_gpu.h's Storage), and asks for the lower triangle by columns
  // (the fill mode made little difference), which is what potrf with LOWER reads. By rows,
  // that is the upper triangle of the course's layout.
  constexpr int vendor_h_by_columns_from = 65536;
  constexpr cublasFillMode_t vendor_syrk_fill_mode = CUBLAS_FILL_MODE_LOWER;

  // How the vendor's pipeline stores H for an n × n system.
  constexpr Storage vendor_h_storage(int n)
  {
    return n >= vendor_h_by_columns_from ? Storage::by_columns : Storage::by_rows;
  }

  // SYRK's transposition for HᵀH from H stored so (vendor-configurations reads it).
  constexpr cublasOperation_t vendor_syrk_operation(int n)
  {
    return vendor_h_storage(n) == Storage::by_columns ? CUBLAS_OP_T : CUBLAS_OP_N;
  }

  // cuBLAS's SYRK on an n × n matrix @p h stored by columns, leading dimensions n: the
  // triangle @p fill of C = op(H) op(H)ᵀ (op: @p trans), on the handle's stream, in
  // float and double. vendor_gram calls it, and vendor-configurations times it.
  cublasStatus_t square_syrk(cublasHandle_t handle, cublasFillMode_t fill, cublasOperation_t trans, int n,
                             const float *h, float *c);
  cublasStatus_t square_syrk(cublasHandle_t handle, cublasFillMode_t fill, cublasOperation_t trans, int n,
                             const double *h, double *c);

  // The lower triangle, by columns, of C = HᵀH for op = transpose, or of C = HHᵀ for
  // op = none (the thesis' formula): n × n, from H n × n stored @p storage with
  // leading dimension n.
  template <typename T>
  void vendor_gram(lab::Cublas &cublas, const T *h, Storage storage, int n, lab::Op op, T *c, cudaStream_t stream);
} // namespace step5
