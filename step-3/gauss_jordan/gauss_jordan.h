#pragma once
// @sect3{Gauss–Jordan inversion of a general matrix}
//
// The thesis' first inverse, and the contrast to GETS: a general square matrix A,
// not triangular, not symmetric, reduced to the identity by row operations on the
// pair [A | X], X = I at the start. For each column k = 0, 1, ..., n-1:
//  1. choose a pivot row p >= k and swap rows k and p (of A and of X);
//  2. divide row k by its pivot A(k, k), which becomes 1;
//  3. subtract A(i, k) times row k from every other row i, above and below, which
//     clears column k except for that 1.
// The same row operations that turn A into I turn I into A^{-1}: when the last column
// is done, X = A^{-1}. The course counts 2n³ flops, as for LAPACK's getrf + getri.
//
// Which pivot? A row swap is needed when A(k, k) is zero, and the thesis swaps only
// then, taking the first nonzero entry below it. That avoids dividing by zero but not
// dividing by something tiny: a tiny pivot makes huge multipliers, and the rounding
// errors of its row, multiplied by them, swamp every other row (`unstable_example.h`
// shows a 2×2 matrix whose inverse comes out with no correct digit). Partial pivoting
// takes the entry of largest magnitude in the column instead, so that no multiplier
// of a row below the pivot exceeds 1 in magnitude: the standard rule, and stable in
// practice.
//
// Singular matrices. A column without a usable pivot stops the elimination: `info`
// (in device memory) becomes k + 1, as LAPACK's getrf reports it, and X is set to
// zero, never left with NaN or Inf. With the thesis' rule "no usable pivot" means that
// every candidate is exactly zero. With partial pivoting it means that the largest
// candidate is at most n ε max|A(i, j)|, ε the working precision's machine epsilon
// and max|A| taken over the whole input: rounding alone makes entries of that size,
// so such a pivot is indistinguishable from zero (two equal rows, for example, leave
// a last pivot of a few ε instead of 0). The test is relative to the largest entry,
// so it does not depend on the matrix's scale, but it does refuse a matrix whose rows
// differ in scale by more than about 1/(n ε): scale such rows first.
//
// A variant is called through one signature, like the triangular ones: it enqueues
// its work on a stream and returns at once. The variants differ in the pivoting rule
// and in how the work is spread over the GPU: 1 and 2 make four launches per column,
// 3 spends almost all its flops in matrix products, which it takes as a lab::Gemm
// (cuBLAS in this step's program, step-4's kernels in step-5). The list below is in
// teaching order.

#include <lab/gemm.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace step3
{
  template <typename T>
  struct GaussJordanArgs
  {
    T *a = nullptr;         // device: A (row-major), overwritten: scratch
    int n = 0;
    int lda = 0;
    T *x = nullptr;         // device: A^{-1} on return; all zero when A is singular
    int ldx = 0;
    int *info = nullptr;    // device: 0, or k + 1 for the first column without a usable pivot
    T *workspace = nullptr; // workspace_elements(n) entries, or nullptr if 0
    lab::Gemm<T> gemm;      // the product variant 3 uses
    cudaStream_t stream = nullptr;
  };

  // The arguments of one inversion: A (n×n, leading dimension ld) on the device, X with
  // the same leading dimension, the info flag, the workspace and the product; the
  // default stream.
  template <typename T>
  GaussJordanArgs<T> gauss_jordan_args(T *a, int n, int ld, T *x, int *info, T *workspace, lab::Gemm<T> gemm)
  {
    GaussJordanArgs<T> args;
    args.a = a;
    args.n = n;
    args.lda = args.ldx = ld;
    args.x = x;
    args.info = info;
    args.workspace = workspace;
    args.gemm = std::move(gemm);
    return args;
  }

  enum class Pivoting
  {
    on_exact_zero, // the thesis: a row swap only when the pivot is exactly 0
    partial        // the entry of largest magnitude in the column
  };

  template <typename T>
  struct GaussJordanVariant
  {
    std::string name;       // file name without extension, e.g. "2_partial_pivoting"
    std::string idea;       // one line
    Pivoting pivoting;
    bool uses_gemm;         // whether its flops go through lab::Gemm
    std::size_t (*workspace_elements)(int n);
    void (*invert)(const GaussJordanArgs<T> &);
  };

  // The variants in teaching order, for float and double.
  template <typename T>
  const std::vector<GaussJordanVariant<T>> &gauss_jordan_variants();

  // The variant a name refers to (a number such as "2" or a full name), or nullptr.
  template <typename T>
  const GaussJordanVariant<T> *find_gauss_jordan_variant(const std::string &name);
} // namespace step3
