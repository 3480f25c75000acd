#pragma once
// @sect3{The problem: C = α op(A) op(B) + β C}
//
// Every kernel of this step, the CPU references and cuBLAS compute the same thing, the
// BLAS routine GEMM (GEneral Matrix-Matrix product):
// @f[ C \leftarrow \alpha\,\mathrm{op}(A)\,\mathrm{op}(B) + \beta\, C, @f]
// where C is m×n, op(A) is m×k and op(B) is k×n, and op(X) is X or its transpose
// @f$X^T@f$. The transposes cost nothing to ask for: the matrix is not moved, only read
// along the other direction. Later steps need exactly that (step-5 forms
// @f$H^TH@f$, step-2 updates a trailing matrix by @f$A - LL^T@f$).
//
// Matrices are stored row by row, like lab::Matrix: entry (r, c) of a matrix with
// leading dimension ld is at `data[r * ld + c]`. β = 0 means "C is output only": C is
// then never read, so whatever it held (even NaN) does not matter, as in BLAS.

#include <lab/host_device.h>

namespace step4
{
  // Whether an operand is used as stored or transposed.
  enum class Op
  {
    none,
    transpose
  };

  // BLAS's letters for the two: "N" and "T".
  inline const char *op_letter(Op op) { return op == Op::none ? "N" : "T"; }

  // The sizes and transposes of one product, without the data.
  struct GemmShape
  {
    int m = 0;
    int n = 0;
    int k = 0;
    Op op_a = Op::none;
    Op op_b = Op::none;

    // The stored shapes: A is m×k as stored, or k×m when it is used transposed.
    LAB_HOST_DEVICE int a_rows() const { return op_a == Op::none ? m : k; }
    LAB_HOST_DEVICE int a_cols() const { return op_a == Op::none ? k : m; }
    LAB_HOST_DEVICE int b_rows() const { return op_b == Op::none ? k : n; }
    LAB_HOST_DEVICE int b_cols() const { return op_b == Op::none ? n : k; }
    // The textbook flop count of the product: k multiplications and k additions for
    // each of the m·n entries (the scaling by α and β is not counted).
    double flops() const { return 2.0 * m * n * k; }
  };

  // What a GPU kernel receives: the shape, the scalars and device pointers. It is
  // passed by value to the kernel (it lands in the kernel's constant parameter space).
  template <typename T>
  struct GemmArgs
  {
    GemmShape shape;
    T alpha = 1;
    T beta = 0;
    const T *a = nullptr;
    int lda = 0;
    const T *b = nullptr;
    int ldb = 0;
    T *c = nullptr;
    int ldc = 0;

    // Entry (i, p) of op(A) and entry (p, j) of op(B): the one place where a
    // transpose is an index swap. The simple kernels read through these; the fast
    // ones load whole tiles and handle the layout once per tile.
    LAB_HOST_DEVICE T op_a(int i, int p) const
    {
      return shape.op_a == Op::none ? a[static_cast<long>(i) * lda + p]
                                    : a[static_cast<long>(p) * lda + i];
    }
    LAB_HOST_DEVICE T op_b(int p, int j) const
    {
      return shape.op_b == Op::none ? b[static_cast<long>(p) * ldb + j]
                                    : b[static_cast<long>(j) * ldb + p];
    }

    // The last step of every kernel: C(i, j) = α·sum + β·C(i, j), where β = 0 does
    // not read C.
    LAB_HOST_DEVICE void store(int i, int j, T sum) const
    {
      T &entry = c[static_cast<long>(i) * ldc + j];
      entry = beta == T(0) ? alpha * sum : alpha * sum + beta * entry;
    }
  };
} // namespace step4
