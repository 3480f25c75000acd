#pragma once
// @sect3{Operands for the TMA (kernels 16 to 19)}
//
// Kernels 16 to 19 do not read A and B themselves: the tensor memory accelerator
// copies their tiles, described on the host by a <i>tensor map</i>. This file holds
// what these kernels need on the host side: whether the GPU runs them at all, the
// tensor maps, and the passes that rewrite an operand the TMA cannot read as it is
// into a scratch buffer (kernels 16 to 18; kernel 19 leaves such operands to kernel
// 14).
//
// Each kernel wants its operands in one layout, named by the index that runs along a
// row of the stored matrix: <i>k-major</i> (rows along k, as A is stored for
// op(A) = A) or <i>n-major</i> (rows along n, as B is stored for op(B) = B). A matrix
// stored the other way round is transposed by a pass; one stored the right way but
// at an address or with a leading dimension the TMA cannot take (it wants a start on
// a 16-byte boundary and rows a multiple of 16 bytes apart) is copied by the same pass
// without transposing. Either way the pass writes rows rounded up to 4 floats, and
// its time counts in the kernel's.

#include "gemm.h"

#include <cuda.h> // CUtensorMap
#include <cuda_runtime.h>

#include <cstddef>

namespace step4
{
  // Whether kernels 16 to 19 can run here: a GPU of compute capability 9.0 and a
  // build that holds their sm_90a code. Asked once, the answer is kept.
  bool wgmma_available();

  // Gives the memory kept for the passes' scratch back to the GPU. The pool keeps it
  // between products (a repeated product then allocates nothing), up to the operands'
  // size of the largest product so far: step-5 calls this after its TF32 pipeline,
  // whose HᵀH needs 16 GiB of scratch at 256², so that the sizes after it see the
  // GPU's memory free.
  void release_wgmma_scratch();

  // A matrix of `rows` rows of `cols` floats, `ld` apart, as the TMA sees it: boxes of
  // box_cols × box_rows (box_cols × 4 bytes at most 128), copied with the 128-byte
  // swizzle, zeros outside the matrix, each float rounded to TF32 on the way.
  // (A product with k = 0 runs no step; no map is made then.)
  CUtensorMap tf32_tensor_map(const float *data, int ld, int rows, int cols, int box_cols,
                              int box_rows);

  // The same for a matrix of doubles (kernel 19), box_cols × 8 bytes at most 128; the
  // values are copied as they are. The TMA reads a matrix whose start lies on a
  // 16-byte boundary and whose rows are a multiple of 16 bytes apart.
  CUtensorMap fp64_tensor_map(const double *data, int ld, int rows, int cols, int box_cols,
                              int box_rows);

  // One operand on its way to a kernel: where the TMA reads it, in the layout asked
  // for.
  struct TmaOperand
  {
    const float *data;
    int ld;
  };

  // Both operands of a product in the layouts its kernel wants: op(A) k-major (m rows
  // of k), op(B) k-major (n rows of k: kernel 16) or n-major (k rows of n: kernels 17
  // and 18).
  // Each is the matrix as stored where it is laid out so already and the TMA can read
  // it; else a pass, issued in stream order, rewrites it into `scratch` (transposed,
  // or copied where only the alignment was wrong). For k = 0 nothing is prepared.
  enum class BLayout
  {
    k_major,
    n_major
  };
  struct TmaOperands
  {
    TmaOperand a, b;
    float *scratch; // to be given back with free_pass_scratch once the kernel is queued
  };
  TmaOperands prepare_operands(const GemmArgs<float> &g, BLayout b_layout, cudaStream_t stream);

  // The scratch of a product's passes comes from a pool of its own, allocated and
  // freed in stream order around the product: the pool keeps the memory after the
  // first call (its release threshold is unlimited), so a repeated product allocates
  // nothing, and products on different streams never share a buffer. `floats` = 0
  // allocates nothing and returns nullptr; freeing nullptr does nothing.
  float *allocate_pass_scratch(std::size_t floats, cudaStream_t stream);
  void free_pass_scratch(float *scratch, cudaStream_t stream);
} // namespace step4
