// The symmetric product (see gram_matrix.h).
#include "gpu/gram_matrix.h"

#include <lab/cuda_check.h>

#include <algorithm>

namespace step5
{
  namespace
  {
    // Row r of P = op(H): a row of H for op = none, a column for op = transpose.
    template <typename T>
    const T *row_of_p(const T *h, int ldh, lab::Op op, int r)
    {
      return op == lab::Op::none ? h + static_cast<long>(r) * ldh : h + r;
    }

    // The split point: half, rounded up to whole tiles (128 rows, or the leaf in the
    // tests), so that the blocks of the recursion line up with the product's tiles.
    int split(int n, int leaf)
    {
      const int granule = std::min(leaf, 128);
      return (n / 2 + granule - 1) / granule * granule;
    }
  } // namespace

  template <typename T>
  void lower_gram(const T *h, int ldh, int n, int k, lab::Op op, T *c, int ldc, const lab::Gemm<T> &gemm,
                  cudaStream_t stream, int leaf)
  {
    // Every product here is rows of P times rows of P transposed: op(A) = P, op(B) = Pᵀ.
    const lab::Op other = op == lab::Op::none ? lab::Op::transpose : lab::Op::none;
    if (n <= leaf)
      {
        lab::GemmArgs<T> diagonal_block = lab::gemm_args<T>({n, n, k, op, other}, 1, h, ldh, h, ldh, 0, c, ldc);
        diagonal_block.output = lab::Output::lower_triangle;
        gemm(diagonal_block, stream);
        return;
      }
    const int n1 = split(n, leaf), n2 = n - n1;
    lower_gram(h, ldh, n1, k, op, c, ldc, gemm, stream, leaf);
    lower_gram(row_of_p(h, ldh, op, n1), ldh, n2, k, op, c + static_cast<long>(n1) * ldc + n1, ldc, gemm, stream,
               leaf);
    // C₂₁ = P₂ P₁ᵀ, n2 × n1.
    gemm(lab::gemm_args<T>({n2, n1, k, op, other}, 1, row_of_p(h, ldh, op, n1), ldh, h, ldh, 0,
                           c + static_cast<long>(n1) * ldc, ldc),
         stream);
  }

  cublasStatus_t square_syrk(cublasHandle_t handle, cublasFillMode_t fill, cublasOperation_t trans, int n,
                             const float *h, float *c)
  {
    const float one = 1, zero = 0;
    return cublasSsyrk(handle, fill, trans, n, n, &one, h, n, &zero, c, n);
  }

  cublasStatus_t square_syrk(cublasHandle_t handle, cublasFillMode_t fill, cublasOperation_t trans, int n,
                             const double *h, double *c)
  {
    const double one = 1, zero = 0;
    return cublasDsyrk(handle, fill, trans, n, n, &one, h, n, &zero, c, n);
  }

  // With H by columns, trans T is HᵀH and trans N is HHᵀ; with H by rows (Hᵀ to
  // cuBLAS), the other way round.
  template <typename T>
  void vendor_gram(lab::Cublas &cublas, const T *h, Storage storage, int n, lab::Op op, T *c, cudaStream_t stream)
  {
    const bool gram_of_columns = (op == lab::Op::transpose) == (storage == Storage::by_columns);
    cublas.bind(stream);
    LAB_CHECK(square_syrk(cublas.get(), vendor_syrk_fill_mode, gram_of_columns ? CUBLAS_OP_T : CUBLAS_OP_N, n,
                               h, c));
  }

  template void lower_gram(const float *, int, int, int, lab::Op, float *, int, const lab::Gemm<float> &,
                           cudaStream_t, int);
  template void lower_gram(const double *, int, int, int, lab::Op, double *, int, const lab::Gemm<double> &,
                           cudaStream_t, int);
  template void vendor_gram(lab::Cublas &, const float *, Storage, int, lab::Op, float *, cudaStream_t);
  template void vendor_gram(lab::Cublas &, const double *, Storage, int, lab::Op, double *, cudaStream_t);
} // namespace step5
