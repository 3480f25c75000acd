#include "triangular/triangular_products.h"

namespace step3
{
  namespace
  {
    // Entry (r, c) of a row-major matrix.
    template <typename P>
    P *at(P *m, int ld, int r, int c)
    {
      return m + static_cast<long>(r) * ld + c;
    }

    // The split point: half, rounded up to whole 64-row tiles, so that the leaves of
    // the recursion line up with the tiles of variant 4.
    int split(int m)
    {
      return (m / 2 + 63) / 64 * 64;
    }

    // C = alpha op(A) op(B) + beta C through the interface.
    template <typename T>
    void product(const lab::Gemm<T> &gemm, cudaStream_t stream, lab::GemmShape shape, T alpha, const T *a,
                 int lda, const T *b, int ldb, T beta, T *c, int ldc)
    {
      gemm(lab::gemm_args(shape, alpha, a, lda, b, ldb, beta, c, ldc), stream);
    }
  } // namespace

  template <typename T>
  void triangle_times(T alpha, const T *t, int m, int ldt, lab::Op op, const T *b, int ldb, int p, T *c,
                      int ldc, const lab::Gemm<T> &gemm, cudaStream_t stream)
  {
    if (m <= triangle_leaf)
      {
        product(gemm, stream, {m, p, m, op, lab::Op::none}, alpha, t, ldt, b, ldb, T(0), c, ldc);
        return;
      }
    const int m1 = split(m), m2 = m - m1;
    const T *t21 = at(t, ldt, m1, 0), *b1 = b, *b2 = at(b, ldb, m1, 0);
    T *c1 = c, *c2 = at(c, ldc, m1, 0);
    triangle_times(alpha, t, m1, ldt, op, b1, ldb, p, c1, ldc, gemm, stream);
    triangle_times(alpha, at(t, ldt, m1, m1), m2, ldt, op, b2, ldb, p, c2, ldc, gemm, stream);
    if (op == lab::Op::none) // C_2 += T_21 B_1
      product(gemm, stream, {m2, p, m1}, alpha, t21, ldt, b1, ldb, T(1), c2, ldc);
    else // C_1 += T_21^T B_2
      product(gemm, stream, {m1, p, m2, lab::Op::transpose}, alpha, t21, ldt, b2, ldb, T(1), c1, ldc);
  }

  template <typename T>
  void times_triangle(T alpha, const T *b, int ldb, int p, const T *t, int m, int ldt, T *c, int ldc,
                      const lab::Gemm<T> &gemm, cudaStream_t stream)
  {
    if (m <= triangle_leaf)
      {
        product(gemm, stream, {p, m, m}, alpha, b, ldb, t, ldt, T(0), c, ldc);
        return;
      }
    const int m1 = split(m), m2 = m - m1;
    const T *b1 = b, *b2 = at(b, ldb, 0, m1);
    T *c1 = c, *c2 = at(c, ldc, 0, m1);
    times_triangle(alpha, b1, ldb, p, t, m1, ldt, c1, ldc, gemm, stream);
    times_triangle(alpha, b2, ldb, p, at(t, ldt, m1, m1), m2, ldt, c2, ldc, gemm, stream);
    // C_1 += B_2 T_21
    product(gemm, stream, {p, m1, m2}, alpha, b2, ldb, at(t, ldt, m1, 0), ldt, T(1), c1, ldc);
  }

  template void triangle_times(float, const float *, int, int, lab::Op, const float *, int, int, float *, int,
                               const lab::Gemm<float> &, cudaStream_t);
  template void triangle_times(double, const double *, int, int, lab::Op, const double *, int, int, double *,
                               int, const lab::Gemm<double> &, cudaStream_t);
  template void times_triangle(float, const float *, int, int, const float *, int, int, float *, int,
                               const lab::Gemm<float> &, cudaStream_t);
  template void times_triangle(double, const double *, int, int, const double *, int, int, double *, int,
                               const lab::Gemm<double> &, cudaStream_t);
} // namespace step3
