// A sparse direct solver: CHOLMOD on the CPU (see sparse_cholesky.h).
#include "methods/sparse_cholesky.h"

#include <lab/timer.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#if LAB_HAVE_CHOLMOD
#include <cholmod.h>
#endif

namespace step5
{
  std::string openmp_wait_policy()
  {
    const char *policy = std::getenv("OMP_WAIT_POLICY");
    return policy ? std::string("OMP_WAIT_POLICY=") + policy
                  : "OMP_WAIT_POLICY not set (PASSIVE is often faster on many cores: see sparse_cholesky.h)";
  }

#if LAB_HAVE_CHOLMOD
  bool have_cholmod() { return true; }

  namespace
  {
    // @sect3{CHOLMOD's objects, freed however the function ends}
    //
    // CHOLMOD is a C library: every object it allocates is freed by a call that takes
    // the workspace ("Common") it was made with. These holders make the calls when
    // they go out of scope. The `cholmod_l_` functions are the ones with 64-bit
    // indices (SuiteSparse_long): L of a 512 × 512 image has hundreds of millions of
    // entries.
    struct Common
    {
      cholmod_common c;
      Common() { cholmod_l_start(&c); }
      ~Common() { cholmod_l_finish(&c); }
      Common(const Common &) = delete;
      Common &operator=(const Common &) = delete;
    };
    struct Sparse
    {
      cholmod_sparse *p = nullptr;
      cholmod_common *c;
      ~Sparse() { cholmod_l_free_sparse(&p, c); }
    };
    struct Factor
    {
      cholmod_factor *p = nullptr;
      cholmod_common *c;
      ~Factor() { cholmod_l_free_factor(&p, c); }
    };
    struct Dense
    {
      cholmod_dense *p = nullptr;
      cholmod_common *c;
      ~Dense() { cholmod_l_free_dense(&p, c); }
    };

    void check(bool ok, const cholmod_common &c, const char *what)
    {
      if (!ok || c.status < CHOLMOD_OK)
        throw std::runtime_error(std::string("CHOLMOD: ") + what + " failed (status " + std::to_string(c.status) +
                                 ")");
    }

    const char *ordering_name(int ordering)
    {
      switch (ordering)
        {
        case CHOLMOD_NATURAL: return "natural";
        case CHOLMOD_GIVEN: return "given";
        case CHOLMOD_AMD: return "AMD";
        case CHOLMOD_METIS: return "METIS";
        case CHOLMOD_NESDIS: return "NESDIS";
        case CHOLMOD_COLAMD: return "COLAMD";
        case CHOLMOD_POSTORDERED: return "natural, postordered";
        default: return "unknown";
        }
    }

    // @sect3{A in compressed sparse columns}
    //
    // CHOLMOD takes a matrix in compressed sparse column (CSC) form: for each column
    // j, the row indices and values of its nonzeros, stored column after column, and
    // where each column starts. Of a symmetric matrix only one triangle is given
    // (stype < 0: the lower one). Column j is pixel j = (r, c); its entries on and
    // below the diagonal are the pixels after it in the stacking, (r + dr, c + dc)
    // with dr > 0, or dr = 0 and dc ≥ 0, inside the image: walking the stencil's
    // rows from dr = 0 down gives them in increasing row order, as CHOLMOD wants
    // (sorted). Entries that are exactly zero (a trail's autocorrelation is a line
    // in its square) are left out: a sparse solver should not see them; the
    // diagonal is kept always. Two passes: count, then fill.
    template <typename Visit>
    void for_each_lower_entry(const NormalStencil &a, int r, int c, Visit &&visit)
    {
      for (int dr = 0; dr <= a.reach_rows && r + dr < a.image_rows; ++dr)
        for (int dc = dr == 0 ? 0 : -a.reach_cols; dc <= a.reach_cols; ++dc)
          {
            if (c + dc < 0 || c + dc >= a.image_cols)
              continue;
            const double value = a.at(r, c, dr, dc);
            if (value != 0 || (dr == 0 && dc == 0))
              visit(static_cast<SuiteSparse_long>(r + dr) * a.image_cols + c + dc, value);
          }
    }

    cholmod_sparse *lower_triangle(const NormalStencil &a, cholmod_common &common)
    {
      const SuiteSparse_long n = static_cast<SuiteSparse_long>(a.image_rows) * a.image_cols;
      SuiteSparse_long nonzeros = 0;
      for (int r = 0; r < a.image_rows; ++r)
        for (int c = 0; c < a.image_cols; ++c)
          for_each_lower_entry(a, r, c, [&](SuiteSparse_long, double) { ++nonzeros; });
      cholmod_sparse *matrix = cholmod_l_allocate_sparse(n, n, nonzeros, /*sorted*/ 1, /*packed*/ 1,
                                                         /*stype*/ -1, CHOLMOD_REAL, &common);
      check(matrix != nullptr, common, "allocating A");
      auto *starts = static_cast<SuiteSparse_long *>(matrix->p);
      auto *rows = static_cast<SuiteSparse_long *>(matrix->i);
      auto *values = static_cast<double *>(matrix->x);
      SuiteSparse_long k = 0;
      for (int r = 0; r < a.image_rows; ++r)
        for (int c = 0; c < a.image_cols; ++c)
          {
            starts[static_cast<SuiteSparse_long>(r) * a.image_cols + c] = k;
            for_each_lower_entry(a, r, c, [&](SuiteSparse_long row, double value) {
              rows[k] = row;
              values[k++] = value;
            });
          }
      starts[n] = k;
      return matrix;
    }
  } // namespace

  // @sect3{Analyse, factorise, solve}
  //
  // The three calls of any sparse direct solver. `cholmod_l_analyze` chooses the
  // ordering with CHOLMOD's default strategy: AMD first, and METIS's nested
  // dissection too when AMD's L looks expensive (more than 500 flops per entry of L
  // and more than five times A's nonzeros), keeping whichever gives the smaller L;
  // and it chooses between a supernodal and a column-by-column (simplicial)
  // factorisation by the flops per entry of L. `cholmod_l_factorize` computes
  // PAPᵀ = LLᵀ (or LDLᵀ when simplicial); a matrix that is not positive definite is
  // no error to CHOLMOD: it stops, sets Common.status to CHOLMOD_NOT_POSDEF and
  // L->minor to the column (of PAPᵀ) where it stopped, which the permutation maps
  // back to the pixel. `cholmod_l_solve` applies P, the two triangular solves and
  // Pᵀ. Each stage is timed once: the method runs once per image.
  SparseCholeskySolutions sparse_cholesky_solve(const NormalStencil &a, const std::vector<lab::Matrix<double>> &bs)
  {
    for (const lab::Matrix<double> &b : bs)
      if (b.rows() != a.image_rows || b.cols() != a.image_cols)
        throw std::invalid_argument("step5::sparse_cholesky_solve: b must be an image of the stencil's size");
    SparseCholeskySolutions solution;
    SparseCholeskyReport &report = solution.report;
    Common common;
    cholmod_common &c = common.c;
    c.print = 0; // the failures come back in the report, not on the console

    lab::HostTimer timer;
    Sparse matrix{lower_triangle(a, c), &c};
    report.assemble = timer.milliseconds();
    report.matrix_nonzeros = double(cholmod_l_nnz(matrix.p, &c));

    timer.start();
    Factor factor{cholmod_l_analyze(matrix.p, &c), &c};
    report.analyse = timer.milliseconds();
    check(factor.p != nullptr, c, "the analysis");
    report.ordering = ordering_name(c.method[c.selected].ordering);
    report.factor_nonzeros = c.lnz;
    report.flops = c.fl;

    timer.start();
    const int factorised = cholmod_l_factorize(matrix.p, factor.p, &c);
    report.factor = timer.milliseconds();
    report.supernodal = factor.p->is_super;
    if (c.status == CHOLMOD_NOT_POSDEF)
      {
        const auto *permutation = static_cast<const SuiteSparse_long *>(factor.p->Perm);
        const SuiteSparse_long column = static_cast<SuiteSparse_long>(factor.p->minor);
        report.failed_pixel = permutation ? long(permutation[column]) : long(column);
        return solution;
      }
    check(factorised, c, "the factorisation");

    // The right-hand sides as the columns of one dense matrix (CHOLMOD's are stored by
    // columns): one solve for them all.
    const long n = static_cast<long>(matrix.p->nrow), k = static_cast<long>(bs.size());
    Dense right_side{cholmod_l_allocate_dense(n, k, n, CHOLMOD_REAL, &c), &c};
    check(right_side.p != nullptr, c, "allocating b");
    auto *b_values = static_cast<double *>(right_side.p->x);
    const int cols = a.image_cols;
    for (long j = 0; j < k; ++j)
      for (int r = 0; r < a.image_rows; ++r)
        for (int col = 0; col < cols; ++col)
          b_values[j * n + static_cast<long>(r) * cols + col] = bs[j](r, col);
    timer.start();
    Dense f{cholmod_l_solve(CHOLMOD_A, factor.p, right_side.p, &c), &c};
    report.solve = timer.milliseconds();
    check(f.p != nullptr, c, "the solve");

    const auto *f_values = static_cast<const double *>(f.p->x);
    for (long j = 0; j < k; ++j)
      {
        lab::Matrix<double> &f_j = solution.f.emplace_back(a.image_rows, cols);
        for (int r = 0; r < a.image_rows; ++r)
          for (int col = 0; col < cols; ++col)
            f_j(r, col) = f_values[j * n + static_cast<long>(r) * cols + col];
      }
    return solution;
  }

  SparseCholeskySolution sparse_cholesky_solve(const NormalStencil &a, const lab::Matrix<double> &b)
  {
    SparseCholeskySolutions solutions = sparse_cholesky_solve(a, std::vector<lab::Matrix<double>>{b});
    SparseCholeskySolution solution;
    solution.report = solutions.report;
    if (!solutions.f.empty())
      solution.f = std::move(solutions.f.front());
    return solution;
  }
#else
  bool have_cholmod() { return false; }

  SparseCholeskySolution sparse_cholesky_solve(const NormalStencil &, const lab::Matrix<double> &)
  {
    throw std::logic_error("step5::sparse_cholesky_solve: this build has no CHOLMOD (SuiteSparse)");
  }

  SparseCholeskySolutions sparse_cholesky_solve(const NormalStencil &, const std::vector<lab::Matrix<double>> &)
  {
    throw std::logic_error("step5::sparse_cholesky_solve: this build has no CHOLMOD (SuiteSparse)");
  }
#endif
} // namespace step5
