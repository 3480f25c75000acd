#pragma once
/// @file
/// @brief The matrix product as an interface: C = α·op(A)·op(B) + β·C, and
/// lab::Gemm<T>, anything that computes one on a stream.
///
/// The fast variants of steps 2 and 3 spend almost all their flops in matrix products,
/// and step-5 forms HᵀH with one. Step-4 teaches how to write a fast product, but it
/// comes later, and a step never uses a later one. So these steps take the product as
/// an argument, a lab::Gemm<T>: their own programs pass cuBLAS's
/// (lab::Cublas, lab/cublas_gemm.h), step-5 passes step-4's kernels (`step4::gemm`),
/// and the same algorithm runs on either:
/// @code
///   template <typename T>
///   void trailing_update(..., const lab::Gemm<T> &gemm, cudaStream_t stream)
///   {
///     lab::GemmArgs<T> g;   // A22 <- A22 - L21 L21^T
///     g.shape = {m, m, nb, lab::Op::none, lab::Op::transpose};
///     g.alpha = -1; g.beta = 1; ...
///     gemm(g, stream);
///   }
/// @endcode
///
/// The operation is the BLAS routine GEMM (GEneral Matrix-Matrix product):
/// @f[ C \leftarrow \alpha\,\mathrm{op}(A)\,\mathrm{op}(B) + \beta\, C, @f]
/// where C is m×n, op(A) is m×k and op(B) is k×n, and op(X) is X or its transpose
/// @f$X^T@f$. A transpose costs nothing to ask for: the matrix is not moved, only read
/// along the other direction. Matrices are stored row by row, like lab::Matrix: entry
/// (r, c) of a matrix with leading dimension ld is at `data[r * ld + c]`. β = 0 means
/// "C is output only": C is then never read, so whatever it held (even NaN) does not
/// matter, as in BLAS.

#include <lab/host_device.h>

#include <cuda_runtime_api.h>

#include <functional>

namespace lab
{
  /// Whether an operand is used as stored or transposed.
  enum class Op
  {
    none,     ///< op(X) = X
    transpose ///< op(X) = Xᵀ
  };

  /// BLAS's letters for the two: "N" and "T".
  inline const char *op_letter(Op op) { return op == Op::none ? "N" : "T"; }

  /// Which entries of C a product must compute. A symmetric update such as step-2's
  /// trailing update, C ← C − P Pᵀ, needs only C's lower triangle: the other half is
  /// its mirror image, and computing it too costs twice the flops.
  enum class Output
  {
    whole,         ///< every entry of C
    lower_triangle ///< C is square (m = n): only the entries on and below its diagonal
  };

  /// How far right of the diagonal a lower-triangle product may write: it may compute
  /// the square tiles on the diagonal whole, tiles of at most this many columns, so
  /// entry (i, j) may change for j < i + lower_triangle_overhang and no further right.
  /// (Step-5's band storage holds that many entries above the diagonal.)
  inline constexpr int lower_triangle_overhang = 256;

  /// The sizes and transposes of one product, without the data.
  struct GemmShape
  {
    int m = 0;             ///< rows of C and of op(A)
    int n = 0;             ///< columns of C and of op(B)
    int k = 0;             ///< columns of op(A), rows of op(B): the inner dimension
    Op op_a = Op::none;    ///< whether A is used transposed
    Op op_b = Op::none;    ///< whether B is used transposed

    /// Rows of A as stored: m, or k when A is used transposed.
    LAB_HOST_DEVICE int a_rows() const { return op_a == Op::none ? m : k; }
    /// Columns of A as stored.
    LAB_HOST_DEVICE int a_cols() const { return op_a == Op::none ? k : m; }
    /// Rows of B as stored: k, or n when B is used transposed.
    LAB_HOST_DEVICE int b_rows() const { return op_b == Op::none ? k : n; }
    /// Columns of B as stored.
    LAB_HOST_DEVICE int b_cols() const { return op_b == Op::none ? n : k; }
    /// The textbook flop count: k multiplications and k additions for each of the m·n
    /// entries (the scaling by α and β is not counted).
    double flops() const { return 2.0 * m * n * k; }
  };

  /// One product: the shape, the scalars and device pointers. A kernel receives it by
  /// value (it lands in the kernel's constant parameter space).
  template <typename T>
  struct GemmArgs
  {
    GemmShape shape;       ///< sizes and transposes
    T alpha = 1;           ///< α
    T beta = 0;            ///< β; 0 means C is not read
    const T *a = nullptr;  ///< A on the device
    int lda = 0;           ///< leading dimension of A (its row stride)
    const T *b = nullptr;  ///< B on the device
    int ldb = 0;           ///< leading dimension of B
    T *c = nullptr;        ///< C on the device
    int ldc = 0;           ///< leading dimension of C
    Output output = Output::whole; ///< all of C, or only its lower triangle

    /// Entry (i, p) of op(A): the one place where a transpose is an index swap. The
    /// simple kernels read through it; the fast ones load whole tiles and handle the
    /// layout once per tile.
    LAB_HOST_DEVICE T op_a(int i, int p) const
    {
      return shape.op_a == Op::none ? a[static_cast<long>(i) * lda + p]
                                    : a[static_cast<long>(p) * lda + i];
    }
    /// Entry (p, j) of op(B).
    LAB_HOST_DEVICE T op_b(int p, int j) const
    {
      return shape.op_b == Op::none ? b[static_cast<long>(p) * ldb + j]
                                    : b[static_cast<long>(j) * ldb + p];
    }

    /// The part of this product that computes the @p rows × @p columns block of C at
    /// (@p row, @p column), all of it: op(A)'s rows from @p row, op(B)'s columns from
    /// @p column, the same k, α and β.
    LAB_HOST_DEVICE GemmArgs block(int row, int column, int rows, int columns) const
    {
      GemmArgs part = *this;
      part.shape.m = rows;
      part.shape.n = columns;
      part.a = shape.op_a == Op::none ? a + static_cast<long>(row) * lda : a + row;
      part.b = shape.op_b == Op::none ? b + column : b + static_cast<long>(column) * ldb;
      part.c = c + static_cast<long>(row) * ldc + column;
      part.output = Output::whole;
      return part;
    }

    /// The last step of every kernel: C(i, j) = α·sum + β·C(i, j), where β = 0 does
    /// not read C.
    LAB_HOST_DEVICE void store(int i, int j, T sum) const
    {
      T &entry = c[static_cast<long>(i) * ldc + j];
      entry = beta == T(0) ? alpha * sum : alpha * sum + beta * entry;
    }
  };

  /// The arguments of C = α op(A) op(B) + β C in one call, for code that composes
  /// products (a blocked algorithm calls many, each a line).
  template <typename T>
  GemmArgs<T> gemm_args(GemmShape shape, T alpha, const T *a, int lda, const T *b, int ldb, T beta, T *c, int ldc)
  {
    GemmArgs<T> g;
    g.shape = shape;
    g.alpha = alpha;
    g.beta = beta;
    g.a = a;
    g.lda = lda;
    g.b = b;
    g.ldb = ldb;
    g.c = c;
    g.ldc = ldc;
    return g;
  }

  /// A matrix product on the GPU: called with the arguments and a stream, it enqueues
  /// the product on that stream and returns (the work runs asynchronously, like a
  /// kernel launch). Any shape is allowed, also an empty C (nothing to do) and k = 0
  /// (C = β·C). A function such as a kernel's launcher converts to it, and so does a
  /// lambda that holds a library handle.
  template <typename T>
  using Gemm = std::function<void(const GemmArgs<T> &, cudaStream_t)>;

  /// A lower-triangle product as ordinary ones, for an implementation with nothing
  /// better: C cut into block columns @p width wide (at most lower_triangle_overhang),
  /// each computed from its diagonal down by @p whole, one product per column. Each
  /// column's square on the diagonal is computed whole.
  template <typename T, typename WholeProduct>
  void lower_triangle_by_block_columns(const GemmArgs<T> &g, WholeProduct &&whole, cudaStream_t stream,
                                       int width = lower_triangle_overhang)
  {
    const int m = g.shape.m;
    for (int j = 0; j < m; j += width)
      whole(g.block(j, j, m - j, m - j < width ? m - j : width), stream);
  }
} // namespace lab
