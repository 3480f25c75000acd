#pragma once
// @sect3{A sparse direct solver: CHOLMOD on the CPU}
//
// The band pipeline (band_pipeline.h) keeps every entry of A inside the band, although
// a row of the band has 2b + 1 entries of which at most (2p.rows − 1)(2p.cols − 1) are
// not zero in A, and its factor L fills the band in completely. A sparse direct solver
// keeps only the nonzeros, and its first move is to renumber the unknowns so that
// L fills in as little as it can. The equations do not change: A f = b becomes
// (PAPᵀ)(Pf) = Pb for a permutation P, and PAPᵀ is still symmetric positive
// definite. Only the order in which the pixels are eliminated changes, and with it the
// fill: eliminating pixel i couples all its not yet eliminated neighbours with each
// other (L's column i is their clique). Row by row, as the band pipeline goes, every
// pixel is still coupled to the next b pixels when its turn comes; that is the band's
// fill, n·b ≈ n^{3/2}·p.rows entries for a square image.
//
// Two kinds of ordering do better:
//  - minimum degree (AMD, approximate minimum degree): eliminate next the pixel with
//    the fewest remaining neighbours, greedily, a cheap heuristic that is good on
//    small and irregular problems;
//  - nested dissection (METIS): cut the image into two halves by a separator (a strip
//    of about p.rows rows of pixels across it), number the separator last, and do the
//    same to each half, recursively. The halves never touch each other's unknowns, so
//    their fill stays inside them; only the separators fill in densely. For a 2D grid
//    the fill is O(n log n) and the work O(n^{3/2}), against the band's n^{3/2} and
//    n² (George's result for grids; no ordering does better on them than a constant
//    factor).
// Then the factorisation works on supernodes: runs of adjacent columns of L with the
// same pattern below the diagonal (the separators above all) are stored as dense
// blocks, and factorised and applied with dense BLAS products (dsyrk, dgemm, dpotrf),
// so that a sparse factorisation runs at the speed of dense products in its big
// fronts. The symbolic work (ordering, elimination tree, supernodes, the pattern of L)
// is a separate first step, `analyse`, that depends only on where A's nonzeros are:
// a program that factorises many matrices of one pattern (one PSF, many λ) pays for
// it once.
//
// That is why a practitioner with this problem on a CPU would reach for a sparse
// Cholesky (CHOLMOD, from SuiteSparse, is what MATLAB's backslash and SciPy's
// scikit-sparse call for a sparse symmetric positive definite matrix) rather than a
// band solver or a dense one: far less fill and far fewer flops, and the dense work
// that remains runs on BLAS. On a GPU its many small and irregular fronts are harder
// to keep busy than the band's few big products, and this course's GPU methods stop
// at the band. Here it runs in double on the CPU, for comparison in the same run.
//
// The course finds CHOLMOD at configure time where it is installed (SuiteSparse,
// e.g. the Debian/Ubuntu package libsuitesparse-dev); without it, have_cholmod() is
// false and the method is simply not among step-5's.

#include "model/blur_model.h"

#include <lab/matrix.h>

#include <string>
#include <vector>

namespace step5
{
  // What the sparse Cholesky reports beside f: its stages' times, what it found.
  struct SparseCholeskyReport
  {
    double assemble = 0;        // ms: A's lower triangle in compressed columns, from the stencil
    double analyse = 0;         // ms: ordering, elimination tree, supernodes, L's pattern
    double factor = 0;          // ms: the numerical factorisation
    double solve = 0;           // ms: the triangular solves, with the permutation
    double matrix_nonzeros = 0; // nonzeros of A's lower triangle (what is stored of A)
    double factor_nonzeros = 0; // nonzeros of L (CHOLMOD's count after the analysis)
    double flops = 0;           // the factorisation's flops, as CHOLMOD counts them
    std::string ordering;       // the ordering CHOLMOD chose: "AMD", "METIS", ...
    bool supernodal = false;    // whether it factorised by supernodes (else column by column)
    long failed_pixel = -1;     // the pixel (r·C + c) at which A was found not positive definite
    // Analyse, factor and solve: the solver's own work.
    double milliseconds() const { return analyse + factor + solve; }
  };

  struct SparseCholeskySolution
  {
    lab::Matrix<double> f; // empty when the factorisation failed
    SparseCholeskyReport report;
  };

  // Whether this build has CHOLMOD.
  bool have_cholmod();

  // CHOLMOD's speed on a machine with many cores depends on one setting of the
  // environment. Its supernodal factorisation opens small OpenMP parallel regions
  // between calls of the BLAS; after each, the OpenMP threads keep spinning for a
  // while (GNU OpenMP's default), on the cores the BLAS's own threads (OpenBLAS: one
  // per core) need next. On the 16 cores of the course's H100 machine the
  // factorisation at 128² took 1.87 s as started and 0.25 s with
  // OMP_WAIT_POLICY=PASSIVE (threads that sleep when idle), 0.21 s with OpenBLAS on 8
  // threads. The OpenMP runtime reads the variable when the program starts, so the
  // program cannot set it; it says what it found: "OMP_WAIT_POLICY=..." or a hint.
  std::string openmp_wait_policy();

  // Solves A f = b in double with CHOLMOD, A given by its stencil (blur_model.h), b an
  // image of the stencil's size; CHOLMOD chooses the ordering. When A is not positive
  // definite, f is empty and report.failed_pixel says where. Throws std::logic_error
  // in a build without CHOLMOD, std::runtime_error when CHOLMOD fails otherwise (out
  // of memory).
  SparseCholeskySolution sparse_cholesky_solve(const NormalStencil &a, const lab::Matrix<double> &b);

  // The same for several right-hand sides (a colour picture's channels), one
  // factorisation for all: f[c] solves A f = bs[c]; all empty when the factorisation
  // failed. report.solve is the solves' time for all of them.
  struct SparseCholeskySolutions
  {
    std::vector<lab::Matrix<double>> f;
    SparseCholeskyReport report;
  };
  SparseCholeskySolutions sparse_cholesky_solve(const NormalStencil &a, const std::vector<lab::Matrix<double>> &bs);
} // namespace step5
