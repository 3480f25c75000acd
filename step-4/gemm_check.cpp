#include "gemm_check.h"

#include <lab/compare.h>
#include <lab/test_matrices.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace step4
{
  template <typename T>
  GemmProblem<T> random_problem(const GemmShape &shape, T alpha, T beta, unsigned seed)
  {
    // Three streams of random numbers per problem, and different problems never share
    // one: problem s draws from the seeds 3s, 3s + 1 and 3s + 2.
    const std::uint64_t first = 3 * static_cast<std::uint64_t>(seed);
    GemmProblem<T> p;
    p.shape = shape;
    p.alpha = alpha;
    p.beta = beta;
    p.a = lab::random_matrix<T>(shape.a_rows(), shape.a_cols(), first);
    p.b = lab::random_matrix<T>(shape.b_rows(), shape.b_cols(), first + 1);
    p.c = lab::random_matrix<T>(shape.m, shape.n, first + 2);
    return p;
  }

  namespace
  {
    // @sect3{Reading a matrix as stored or transposed}
    //
    // The check reads op(A), op(B), C and the result through one small view: a stored
    // row-major matrix read as itself or as its transpose, converted to double on the
    // way. Its transpose is the same storage read the other way round, which is what
    // lets one loop below check rows as well as columns.
    template <typename T>
    struct View
    {
      const T *data = nullptr;
      int ld = 0;
      bool transposed = false;

      double operator()(int r, int c) const
      {
        return transposed ? data[static_cast<long>(c) * ld + r]
                          : data[static_cast<long>(r) * ld + c];
      }
      View transpose() const { return {data, ld, !transposed}; }
    };

    template <typename T>
    View<T> view(const lab::Matrix<T> &m, Op op)
    {
      return {m.data(), m.ld(), op == Op::transpose};
    }

    template <typename T>
    void require_shape(const lab::Matrix<T> &x, int rows, int cols, const char *name)
    {
      if (x.rows() != rows || x.cols() != cols)
        throw std::invalid_argument(std::string("GEMM check: ") + name + " is " +
                                    std::to_string(x.rows()) + " x " +
                                    std::to_string(x.cols()) + ", the shape needs " +
                                    std::to_string(rows) + " x " + std::to_string(cols));
    }

    // C is only looked at when β ≠ 0.
    template <typename T>
    void require_shapes(const GemmProblem<T> &p)
    {
      const GemmShape &s = p.shape;
      if (s.m < 0 || s.n < 0 || s.k < 0)
        throw std::invalid_argument("GEMM check: negative size");
      require_shape(p.a, s.a_rows(), s.a_cols(), "A");
      require_shape(p.b, s.b_rows(), s.b_cols(), "B");
      if (p.beta != T(0))
        require_shape(p.c, s.m, s.n, "C");
    }

    // @sect3{Checking whole columns of a product}
    //
    // The one loop of the check: the entries (i, j) of the product X·Y, for every row
    // i and the columns j listed, compared with @p result. X is `rows` x k and Y is
    // k x (anything), both read through views; @p c and @p result are read at (i, j).
    // Rows of C = op(A) op(B) are columns of Cᵀ = op(B)ᵀ op(A)ᵀ, so the same loop
    // checks rows by being handed the transposed views.
    template <typename T>
    struct ProductToCheck
    {
      View<T> x, y, c, result;
      int rows = 0;
      int k = 0;
      double alpha = 1;
      double beta = 0;

      ProductToCheck transpose(int columns) const
      {
        return {y.transpose(), x.transpose(), c.transpose(), result.transpose(),
                columns, k, alpha, beta};
      }
    };

#pragma omp declare reduction(nan_max : double : omp_out = lab::nan_max(omp_out, omp_in)) \
  initializer(omp_priv = 0)

    template <typename T>
    double worst_error(const ProductToCheck<T> &checked, const std::vector<int> &columns)
    {
      const int k = checked.k;
      const int count = static_cast<int>(columns.size());

      // The listed columns of Y are copied once into a contiguous k x count array in
      // double, with their magnitudes beside them: the loop below then reads them
      // along rows, like the i-k-j products of gemm_cpu_loops.cpp.
      std::vector<double> y(static_cast<std::size_t>(k) * count);
      std::vector<double> y_abs(y.size());
#pragma omp parallel for
      for (int p = 0; p < k; ++p)
        for (int c = 0; c < count; ++c)
          {
            const std::size_t at = static_cast<std::size_t>(p) * count + c;
            y[at] = checked.y(p, columns[c]);
            y_abs[at] = std::abs(y[at]);
          }

      // Each thread takes a block of 16 rows by 64 of the columns at a time and keeps
      // its sums and bounds (16 KiB) in the L1 cache while p runs from 0 to k - 1. The
      // p loop runs in order, so entry for entry the sums are those of gemm_in_double.
      constexpr int block_rows = 16;
      constexpr int block_columns = 64;
      const int row_blocks = (checked.rows + block_rows - 1) / block_rows;
      const int column_blocks = (count + block_columns - 1) / block_columns;

      // The largest error, NaN-safe: OpenMP's own `max` reduction would skip a NaN
      // (every comparison with NaN is false), so the threads' maxima are combined with
      // lab::nan_max (the reduction `nan_max`, declared above).
      double worst = 0;
#pragma omp parallel for collapse(2) schedule(dynamic) reduction(nan_max : worst)
      for (int rb = 0; rb < row_blocks; ++rb)
        for (int cb = 0; cb < column_blocks; ++cb)
          {
            const int i0 = rb * block_rows;
            const int c0 = cb * block_columns;
            const int rows_here = std::min(block_rows, checked.rows - i0);
            const int columns_here = std::min(block_columns, count - c0);
            double sum[block_rows][block_columns] = {};
            double magnitude[block_rows][block_columns] = {};
            for (int p = 0; p < k; ++p)
              {
                const double *y_row = y.data() + static_cast<std::size_t>(p) * count + c0;
                const double *y_abs_row =
                  y_abs.data() + static_cast<std::size_t>(p) * count + c0;
                for (int ii = 0; ii < rows_here; ++ii)
                  {
                    const double x = checked.x(i0 + ii, p);
                    const double x_abs = std::abs(x);
                    for (int cc = 0; cc < columns_here; ++cc)
                      {
                        sum[ii][cc] += x * y_row[cc];
                        magnitude[ii][cc] += x_abs * y_abs_row[cc];
                      }
                  }
              }
            for (int ii = 0; ii < rows_here; ++ii)
              for (int cc = 0; cc < columns_here; ++cc)
                {
                  const int i = i0 + ii;
                  const int j = columns[c0 + cc];
                  double reference = checked.alpha * sum[ii][cc];
                  double bound = std::abs(checked.alpha) * magnitude[ii][cc];
                  if (checked.beta != 0)
                    {
                      reference += checked.beta * checked.c(i, j);
                      bound += std::abs(checked.beta) * std::abs(checked.c(i, j));
                    }
                  worst = lab::nan_max(worst,
                                       lab::entry_error(checked.result(i, j), reference, bound));
                }
          }
      return worst;
    }

    // @sect3{Which rows and columns are sampled}
    //
    // All n indices, or one in every band of check_band (the last band may be
    // shorter), at a place in the band drawn from a fixed seed so that the samples fall
    // on tile edges and tile interiors alike and the same ones are checked on every
    // run; the first and the last index (where edge cases live) always.
    std::vector<int> all_indices(int n)
    {
      std::vector<int> indices(n);
      std::iota(indices.begin(), indices.end(), 0);
      return indices;
    }

    std::vector<int> one_per_band(int n, std::uint64_t seed)
    {
      std::mt19937_64 engine(seed);
      std::vector<int> indices;
      for (int start = 0; start < n; start += check_band)
        {
          const int width = std::min(check_band, n - start);
          indices.push_back(start + static_cast<int>(engine() % static_cast<std::uint64_t>(width)));
        }
      if (indices.front() != 0)
        indices.insert(indices.begin(), 0);
      if (indices.back() != n - 1)
        indices.push_back(n - 1);
      return indices;
    }

    bool checks_every_entry(const GemmShape &s, double full_check_limit)
    {
      return double(s.m) * s.n * s.k <= full_check_limit;
    }
  } // namespace

  // @sect3{The check}
  //
  // A full check goes by columns of C or by columns of Cᵀ (rows of C), whichever has
  // fewer of them to copy. A sampled one by the sampled columns and the sampled rows;
  // an entry where a sampled row and a sampled column cross is simply checked twice.
  template <typename T>
  double gemm_error(const GemmProblem<T> &p, const lab::Matrix<T> &result, double full_check_limit)
  {
    require_shapes(p);
    const GemmShape &s = p.shape;
    require_shape(result, s.m, s.n, "the result");
    if (s.m == 0 || s.n == 0)
      return 0;

    const ProductToCheck<T> product{view(p.a, s.op_a),
                             view(p.b, s.op_b),
                             view(p.c, Op::none),
                             view(result, Op::none),
                             s.m,
                             s.k,
                             static_cast<double>(p.alpha),
                             static_cast<double>(p.beta)};
    const ProductToCheck<T> transposed = product.transpose(s.n);

    if (checks_every_entry(s, full_check_limit))
      return s.n <= s.m ? worst_error(product, all_indices(s.n))
                        : worst_error(transposed, all_indices(s.m));
    return lab::nan_max(worst_error(product, one_per_band(s.n, 2)),
                        worst_error(transposed, one_per_band(s.m, 1)));
  }

  std::string gemm_check_coverage(const GemmShape &shape, double full_check_limit)
  {
    return checks_every_entry(shape, full_check_limit)
             ? "every entry"
             : "one row and one column in every " + std::to_string(check_band) + " (every " +
                 std::to_string(check_band) + "x" + std::to_string(check_band) + " tile seen)";
  }

  // The full reference is a plain loop, written apart from the blocked one above, so
  // that the tests can check the one against the other.
  template <typename T>
  lab::Matrix<double> gemm_in_double(const GemmProblem<T> &p)
  {
    require_shapes(p);
    const GemmShape &s = p.shape;
    const View<T> a = view(p.a, s.op_a);
    const View<T> b = view(p.b, s.op_b);
    const double alpha = p.alpha;
    const double beta = p.beta;
    lab::Matrix<double> reference(s.m, s.n);
#pragma omp parallel for
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.n; ++j)
        {
          double sum = 0;
          for (int q = 0; q < s.k; ++q)
            sum += a(i, q) * b(q, j);
          reference(i, j) = beta != 0 ? alpha * sum + beta * p.c(i, j) : alpha * sum;
        }
    return reference;
  }

  // Compiled once for each of the two number types of the course.
#define STEP4_INSTANTIATE(T)                                                         \
  template GemmProblem<T> random_problem<T>(const GemmShape &, T, T, unsigned);      \
  template double gemm_error<T>(const GemmProblem<T> &, const lab::Matrix<T> &, double); \
  template lab::Matrix<double> gemm_in_double<T>(const GemmProblem<T> &);
  STEP4_INSTANTIATE(float)
  STEP4_INSTANTIATE(double)
#undef STEP4_INSTANTIATE
} // namespace step4
