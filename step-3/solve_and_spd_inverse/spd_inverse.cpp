#include "solve_and_spd_inverse/spd_inverse.h"
#include "triangular/triangular_products.h"

namespace step3
{
  template <typename T>
  void inverse_from_factor_inverse(const T *x, int n, int ldx, T *c, int ldc, const lab::Gemm<T> &gemm,
                                   cudaStream_t stream)
  {
    triangle_times(T(1), x, n, ldx, lab::Op::transpose, x, ldx, n, c, ldc, gemm, stream);
  }

  template void inverse_from_factor_inverse(const float *, int, int, float *, int, const lab::Gemm<float> &,
                                            cudaStream_t);
  template void inverse_from_factor_inverse(const double *, int, int, double *, int,
                                            const lab::Gemm<double> &, cudaStream_t);
} // namespace step3
