#include "gemm_reference.h"

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

    // The error of one entry as defined in gemm_reference.h. A NaN anywhere (in the
    // value, the reference or the bound) stays NaN; a zero bound means the exact
    // answer is 0.
    double entry_error(double value, double reference, double bound)
    {
      const double difference = std::abs(value - reference);
      if (std::isnan(difference) || std::isnan(bound))
        return std::numeric_limits<double>::quiet_NaN();
      if (bound == 0)
        return difference == 0 ? 0 : std::numeric_limits<double>::infinity();
      return difference / bound;
    }

    // @sect3{Checking whole columns of a product}
    //
    // The one loop of the check: the entries (i, j) of the product X·Y, for every row
    // i and the columns j listed, compared with @p result. X is `rows` x k and Y is
    // k x (anything), both read through views; @p c and @p result are read at (i, j).
    // Rows of C = op(A) op(B) are columns of Cᵀ = op(B)ᵀ op(A)ᵀ, so the same loop
    // checks rows by being handed the transposed views.
    template <typename T>
    struct Product
    {
      View<T> x, y, c, result;
      int rows = 0;
      int k = 0;
      double alpha = 1;
      double beta = 0;

      Product transpose(int columns) const
      {
        return {y.transpose(), x.transpose(), c.transpose(), result.transpose(),
                columns, k, alpha, beta};
      }
    };

    template <typename T>
    double worst_error(const Product<T> &w, const std::vector<int> &columns)
    {
      const int k = w.k;
      const int count = static_cast<int>(columns.size());

      // The listed columns of Y are copied once into a contiguous k x count array in
      // double, with their magnitudes beside them: the loop below then reads them
      // along rows, like the i-k-j products of gemm_cpu.cpp.
      std::vector<double> y(static_cast<std::size_t>(k) * count);
      std::vector<double> y_abs(y.size());
#pragma omp parallel for
      for (int p = 0; p < k; ++p)
        for (int c = 0; c < count; ++c)
          {
            const std::size_t at = static_cast<std::size_t>(p) * count + c;
            y[at] = w.y(p, columns[c]);
            y_abs[at] = std::abs(y[at]);
          }

      // Each thread takes a block of 16 rows by 64 of the columns at a time and keeps
      // its sums and bounds (16 KiB) in the L1 cache while p runs from 0 to k - 1. The
      // p loop runs in order, so entry for entry the sums are those of reference_gemm.
      constexpr int block_rows = 16;
      constexpr int block_columns = 64;
      const int row_blocks = (w.rows + block_rows - 1) / block_rows;
      const int column_blocks = (count + block_columns - 1) / block_columns;

      // A maximum skips NaN (every comparison with NaN is false), so NaN is counted
      // apart and wins at the end.
      double worst = 0;
      bool nan_seen = false;
#pragma omp parallel for collapse(2) schedule(dynamic) reduction(max : worst) \
  reduction(|| : nan_seen)
      for (int rb = 0; rb < row_blocks; ++rb)
        for (int cb = 0; cb < column_blocks; ++cb)
          {
            const int i0 = rb * block_rows;
            const int c0 = cb * block_columns;
            const int rows_here = std::min(block_rows, w.rows - i0);
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
                    const double x = w.x(i0 + ii, p);
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
                  double reference = w.alpha * sum[ii][cc];
                  double bound = std::abs(w.alpha) * magnitude[ii][cc];
                  if (w.beta != 0)
                    {
                      reference += w.beta * w.c(i, j);
                      bound += std::abs(w.beta) * std::abs(w.c(i, j));
                    }
                  const double error = entry_error(w.result(i, j), reference, bound);
                  if (std::isnan(error))
                    nan_seen = true;
                  else
                    worst = std::max(worst, error);
                }
          }
      return nan_seen ? std::numeric_limits<double>::quiet_NaN() : worst;
    }

    // @sect3{Which rows and columns are sampled}
    //
    // All n indices when there are at most @p count; otherwise the first, the last
    // (where edge cases live) and count - 2 others drawn from a fixed seed, so that
    // they fall on tile boundaries and tile interiors alike and the same ones are
    // checked on every run.
    std::vector<int> all_indices(int n)
    {
      std::vector<int> indices(n);
      std::iota(indices.begin(), indices.end(), 0);
      return indices;
    }

    std::vector<int> sampled_indices(int n, int count, std::uint64_t seed)
    {
      if (n <= count)
        return all_indices(n);
      std::vector<char> picked(n, 0);
      picked[0] = picked[n - 1] = 1;
      std::mt19937_64 engine(seed);
      for (int chosen = 2; chosen < count;)
        {
          const int i = static_cast<int>(engine() % static_cast<std::uint64_t>(n));
          if (!picked[i])
            {
              picked[i] = 1;
              ++chosen;
            }
        }
      std::vector<int> indices;
      for (int i = 0; i < n; ++i)
        if (picked[i])
          indices.push_back(i);
      return indices;
    }
  } // namespace

  // @sect3{The check}
  //
  // Small products, and those with at most `sample` rows or columns, are checked in
  // full: by columns of C or by columns of Cᵀ (rows of C), whichever has fewer of them
  // to copy. Larger ones by `sample` columns and `sample` rows; an entry where a
  // sampled row and a sampled column cross is simply checked twice.
  template <typename T>
  double gemm_error(const GemmProblem<T> &p, const lab::Matrix<T> &result, int sample)
  {
    require_shapes(p);
    const GemmShape &s = p.shape;
    require_shape(result, s.m, s.n, "the result");
    if (sample < 2)
      throw std::invalid_argument("GEMM check: sample must be at least 2 (first and last)");

    const Product<T> product{view(p.a, s.op_a),
                             view(p.b, s.op_b),
                             view(p.c, Op::none),
                             view(result, Op::none),
                             s.m,
                             s.k,
                             static_cast<double>(p.alpha),
                             static_cast<double>(p.beta)};
    const Product<T> transposed = product.transpose(s.n);

    const bool small = static_cast<long>(s.m) * s.n <= 512L * 512;
    if (small || s.m <= sample || s.n <= sample)
      return s.n <= s.m ? worst_error(product, all_indices(s.n))
                        : worst_error(transposed, all_indices(s.m));

    const double by_columns = worst_error(product, sampled_indices(s.n, sample, 2));
    const double by_rows = worst_error(transposed, sampled_indices(s.m, sample, 1));
    if (std::isnan(by_columns) || std::isnan(by_rows))
      return std::numeric_limits<double>::quiet_NaN();
    return std::max(by_columns, by_rows);
  }

  // The full reference is a plain loop, written apart from the blocked one above, so
  // that the tests can check the one against the other.
  template <typename T>
  lab::Matrix<double> reference_gemm(const GemmProblem<T> &p)
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
  template double gemm_error<T>(const GemmProblem<T> &, const lab::Matrix<T> &, int); \
  template lab::Matrix<double> reference_gemm<T>(const GemmProblem<T> &);
  STEP4_INSTANTIATE(float)
  STEP4_INSTANTIATE(double)
#undef STEP4_INSTANTIATE
} // namespace step4
