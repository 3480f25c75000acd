#pragma once
// @sect3{The triangular inverses, as a list}
//
// Every variant of this step computes the same thing: the inverse X = L^{-1} of a
// lower triangular n×n matrix L (row-major, leading dimension ld; only the lower
// triangle is read). X is lower triangular too, and is written whole: its upper
// triangle is set to zero, so that X can go straight into a product.
//
// A triangular matrix is invertible exactly when no diagonal entry is zero (its
// determinant is their product), and that is all a variant has to check: like
// LAPACK's `trtri`, `info` (in device memory) is 0 on success and j + 1 when L(j, j)
// is the first zero on the diagonal. X is then all zero, never NaN or Inf.
//
// The variants differ in how they spread the work over the GPU. 1 and 2 are the
// thesis' Gaussian elimination (GETS), 3 and 4 turn the same elimination into matrix
// products, which they take as a lab::Gemm (cuBLAS in this step's program, step-4's
// kernels in step-5). They are called through one signature, enqueue their work on
// a stream and return at once, like a kernel launch.

#include <lab/gemm.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace step3
{
  template <typename T>
  struct InverseArgs
  {
    const T *l = nullptr;   // device: L in the lower triangle
    int n = 0;
    int ld = 0;
    T *x = nullptr;         // device: X = L^{-1} on return (all n×n entries written)
    int ldx = 0;
    int *info = nullptr;    // device: 0, or j + 1 for the first zero diagonal entry L(j, j)
    T *workspace = nullptr; // workspace_elements(n) entries, or nullptr if 0
    lab::Gemm<T> gemm;      // the product variants 3 and 4 use
    cudaStream_t stream = nullptr;
  };

  // The arguments of one inversion: L (n×n, leading dimension ld) on the device, X
  // with the same leading dimension, the info flag, the workspace and the product;
  // the default stream.
  template <typename T>
  InverseArgs<T> inverse_args(const T *l, int n, int ld, T *x, int *info, T *workspace, lab::Gemm<T> gemm)
  {
    InverseArgs<T> args;
    args.l = l;
    args.n = n;
    args.ld = args.ldx = ld;
    args.x = x;
    args.info = info;
    args.workspace = workspace;
    args.gemm = std::move(gemm);
    return args;
  }

  template <typename T>
  struct InverseVariant
  {
    std::string name;       // file name without extension, e.g. "1_gets_2011"
    std::string idea;       // one line
    bool uses_gemm;         // whether its flops go through lab::Gemm
    int largest_n;          // the largest n the full sweep gives it (the slow ones stop early)
    std::size_t (*workspace_elements)(int n);
    void (*invert)(const InverseArgs<T> &);
  };

  // Variants 1 to 4 in teaching order, for float and double.
  template <typename T>
  const std::vector<InverseVariant<T>> &inverse_variants();

  // The variant a name refers to (a number such as "3" or a full name), or nullptr.
  template <typename T>
  const InverseVariant<T> *find_inverse_variant(const std::string &name);
} // namespace step3
