#pragma once
// @sect3{The vendor's routines, the yardstick}
//
// Everything this step computes, the vendor libraries compute too, and each variant
// is timed against them in the same run:
//  - `cusolverDnXtrtri`, LAPACK's triangular inverse;
//  - `cublas<t>trsm` against the identity, L X = I: a triangular solve with n
//    right-hand sides. It does n³ flops where the inverse needs n³/3 (it does not know
//    that the right-hand sides are the identity), but in products, and it is faster
//    than trtri;
//  - for the SPD inverse A^{-1} from A's Cholesky factor: `potri` (trtri and the
//    product L^{-T} L^{-1}, one triangle) and `potrs` against the identity;
//  - for solving A x = b: `potrs`, the two substitutions.
// potrs is step-2's (step2::CusolverCholesky::solve); this class holds the others.
// cuSOLVER and cuBLAS store by columns: our row-major lower L is, to them, the upper
// triangle of L^T, so every call below asks for CUBLAS_FILL_MODE_UPPER, and a result
// read back by rows is the transpose of what they computed in their own view, which
// for L^{-T} is our L^{-1} and for the symmetric A^{-1} is A^{-1} itself. Workspaces
// are queried and allocated in the constructor, outside every timing.

#include <lab/cublas_gemm.h>
#include <lab/cusolver.h>
#include <lab/device_buffer.h>


#include <cstddef>
#include <vector>

namespace step3
{
  template <typename T>
  class VendorTriangular
  {
  public:
    // The configurations, measured (tools/vendor-configurations reads these).
    static constexpr cublasFillMode_t trtri_fill_mode = CUBLAS_FILL_MODE_UPPER;
    static constexpr cublasFillMode_t potri_fill_mode = CUBLAS_FILL_MODE_UPPER;
    static constexpr cublasSideMode_t trsm_side = CUBLAS_SIDE_RIGHT;
    static constexpr cublasFillMode_t trsm_fill_mode = CUBLAS_FILL_MODE_UPPER;
    static constexpr cublasOperation_t trsm_operation = CUBLAS_OP_N;

    // For n×n matrices with leading dimension ld; trsm goes through @p cublas.
    VendorTriangular(int n, int ld, lab::Cublas &cublas);

    // L^{-1} in place of L (lower triangle; the upper one is not touched).
    void trtri(T *l, int *info, cudaStream_t stream);
    // X = L^{-1} X; X must hold the identity on entry for the inverse.
    void trsm(const T *l, T *x, cudaStream_t stream);
    // A^{-1} from its Cholesky factor, in place, in the lower triangle.
    void potri(T *factor, int *info, cudaStream_t stream);

  private:
    int n_, ld_;
    lab::Cublas &cublas_;
    lab::Cusolver cusolver_;
    std::size_t trtri_device_bytes_ = 0, trtri_host_bytes_ = 0;
    int potri_elements_ = 0;
    lab::DeviceBuffer<unsigned char> device_workspace_;
    std::vector<unsigned char> host_workspace_;
  };
} // namespace step3
