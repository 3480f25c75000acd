#include "gemm_cpu_loops.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace step4
{
  namespace
  {
    void require_inner(const lab::Matrix<float> &a, const lab::Matrix<float> &b)
    {
      if (a.cols() != b.rows())
        throw std::invalid_argument(
          "C = A B needs A.cols() == B.rows(), but A is " + std::to_string(a.rows()) +
          " x " + std::to_string(a.cols()) + " and B is " + std::to_string(b.rows()) +
          " x " + std::to_string(b.cols()));
    }

    // Row r of a matrix as a pointer: the loops below walk along rows.
    const float *row(const lab::Matrix<float> &x, int r)
    {
      return x.data() + static_cast<std::size_t>(r) * x.ld();
    }
    float *row(lab::Matrix<float> &x, int r)
    {
      return x.data() + static_cast<std::size_t>(r) * x.ld();
    }

    // @sect3{The loop order i-k-j}
    //
    // The one inner loop of all the fast CPU versions: for rows i of A and C, for p in
    // a range, add A(i, p) times columns [j0, j1) of row p of B to the same columns of
    // row i of C. The innermost loop runs along a row of B and a row of C, both
    // contiguous in memory, and its iterations are independent (each j updates its own
    // entry). The compiler therefore turns it into SIMD instructions that load, multiply
    // and add 8 or 16 floats at once. The textbook order i-j-k instead ends in a sum
    // over p: every addition waits for the previous one, and the compiler may not
    // reorder them (floating point addition is not associative), while B is read down a
    // column, one cache line for every number used.
    void add_products(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                      lab::Matrix<float> &c, int i0, int i1, int p0, int p1, int j0,
                      int j1)
    {
      // @exercise{cache_friendly_order, 1}
      // The loop order that lets the compiler vectorise a product on the CPU. Add
      // a(i, p) b(p, j) to c(i, j) for i from i0 to i1 - 1, p from p0 to p1 - 1 and j
      // from j0 to j1 - 1, with j, along a row of B and of C, the innermost loop
      // (`row(m, i)` points to row i of a matrix), so that its iterations are
      // independent and contiguous.
      for (int i = i0; i < i1; ++i)
        {
          float *c_row = row(c, i);
          for (int p = p0; p < p1; ++p)
            {
              const float a_ip = row(a, i)[p];
              const float *b_row = row(b, p);
              for (int j = j0; j < j1; ++j)
                c_row[j] += a_ip * b_row[j];
            }
        }
      // @end-exercise
    }

    // One tile of C, the rows [i0, i0 + 64) and columns [j0, j0 + 64) (fewer at the
    // edges), computed completely: the tiles of A along its rows times the tiles of B
    // down its columns, with p, the tile of the inner dimension, in the middle loop.
    // While the tile of C is being built, it and the current tiles of A and B stay in
    // the cache, so each number brought from memory is used 64 times.
    void multiply_tile(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                       lab::Matrix<float> &c, int i0, int j0)
    {
      const int i1 = std::min(i0 + cpu_tile, c.rows());
      const int j1 = std::min(j0 + cpu_tile, c.cols());
      for (int p0 = 0; p0 < a.cols(); p0 += cpu_tile)
        add_products(a, b, c, i0, i1, p0, std::min(p0 + cpu_tile, a.cols()), j0, j1);
    }

    int tiles(int n) { return (n + cpu_tile - 1) / cpu_tile; }
  } // namespace

  // @sect3{The naive product}
  //
  // A dot product per entry, as the definition of the product reads. The report's
  // version of this loop (A is m x n, B is n x p there) runs its innermost loop up to
  // p, the number of columns of B; it must run over the inner dimension n, the columns
  // of A and rows of B. The two agree only for square matrices, which is all the
  // report tested. Here the inner dimension is k = A.cols() = B.rows().
  //
  // It is slow for the two reasons explained above add_products(): the sum is a chain of
  // dependent additions, and B is read down its columns, so for large n every
  // multiply-add waits for a cache line from memory.
  void multiply_naive(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                      lab::Matrix<float> &c)
  {
    require_inner(a, b);
    lab::Matrix<float> product(a.rows(), b.cols());
    for (int i = 0; i < a.rows(); ++i)
      for (int j = 0; j < b.cols(); ++j)
        {
          float sum = 0;
          for (int p = 0; p < a.cols(); ++p)
            sum += a(i, p) * b(p, j);
          product(i, j) = sum;
        }
    c = std::move(product);
  }

  // @sect3{The cache-tiled product}
  //
  // The same multiply-adds, tile by tile of C. The report's tiled loop kept the order
  // i-j-k inside a tile; the order i-k-j (add_products()) is what lets the compiler
  // vectorise it. The tile loops run over whole tiles of C, so the product is
  // correct for any m, n and k: a tile at the edge is simply smaller.
  void multiply_cache_tiled(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                            lab::Matrix<float> &c)
  {
    require_inner(a, b);
    lab::Matrix<float> product(a.rows(), b.cols());
    for (int ti = 0; ti < tiles(a.rows()); ++ti)
      for (int tj = 0; tj < tiles(b.cols()); ++tj)
        multiply_tile(a, b, product, ti * cpu_tile, tj * cpu_tile);
    c = std::move(product);
  }

  // @sect3{OpenMP: rows of C}
  //
  // Every entry of C can be computed independently of the others, so the rows are
  // shared among the threads with one `#pragma omp parallel for`: each row of C is
  // written by one thread only, and A and B are only read, so no synchronisation is
  // needed. Inside a row the order is i-k-j, vectorised. What limits it is memory:
  // each row reads all of B, and B does not fit in the cache when it is large, so the
  // threads queue for the same memory bandwidth (the report measured speed-ups of about
  // 12 on 24 virtual CPUs).
  void multiply_openmp_rows(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                            lab::Matrix<float> &c)
  {
    require_inner(a, b);
    lab::Matrix<float> product(a.rows(), b.cols());
#pragma omp parallel for schedule(static)
    for (int i = 0; i < a.rows(); ++i)
      add_products(a, b, product, i, i + 1, 0, a.cols(), 0, b.cols());
    c = std::move(product);
  }

  // @sect3{OpenMP: tiles of C}
  //
  // The cache-tiled product with its two tile loops shared among the threads:
  // `collapse(2)` makes one loop of the (m/64)·(n/64) tiles of C, enough work for
  // every core even when m/64 alone is not. Each iteration computes its tile of C
  // completely, the loop over the inner dimension included, so each tile is written by
  // exactly one thread and no two threads ever touch the same entry: no locks, no
  // atomics. The report instead made one task per tile of A, B and C, and had to order
  // the tasks that add into the same tile of C with `depend(inout: ...)`; keeping the
  // p loop inside one iteration makes that unnecessary. (Collapsing the p loop as well
  // would be a race: two threads adding into the same entry at once.)
  void multiply_openmp_tiles(const lab::Matrix<float> &a, const lab::Matrix<float> &b,
                             lab::Matrix<float> &c)
  {
    require_inner(a, b);
    lab::Matrix<float> product(a.rows(), b.cols());
    const int tile_rows = tiles(a.rows());
    const int tile_columns = tiles(b.cols());
#pragma omp parallel for collapse(2) schedule(static)
    for (int ti = 0; ti < tile_rows; ++ti)
      for (int tj = 0; tj < tile_columns; ++tj)
        multiply_tile(a, b, product, ti * cpu_tile, tj * cpu_tile);
    c = std::move(product);
  }
} // namespace step4
