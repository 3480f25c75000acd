#pragma once
// @sect3{Kernel 12: tensor cores in TF32}
//
// Since Volta, each SM has tensor cores: units that multiply small matrices in one
// instruction. A warp hands them fragments (here 16×8 of A and 8×16 of B, the shape
// m16n16k8) and gets a 16×16 block of sums back; on an H100/H200 they deliver about
// eight times the FP32 rate of the ordinary cores. The catch is the input
// precision: TF32 ("TensorFloat-32") keeps float's 8-bit exponent but only 10 bits
// of mantissa, so each input carries a relative error of up to @f$2^{-11}@f$ (about
// 5·10⁻⁴) instead of float's 6·10⁻⁸; the products are summed in full FP32. For many
// applications (deep learning above all) that is plenty; for a linear solver it may
// not be, which is why the course measures the error as well as the speed, and
// compares with cuBLAS in TF32 mode, not with its pure-FP32 SGEMM.
//
// The kernel is written with WMMA (`nvcuda::wmma`), CUDA C++'s portable interface to
// the tensor cores: load_matrix_sync brings a fragment from shared memory into the
// warp's registers (how the values are spread over the 32 threads is opaque),
// mma_sync multiplies and accumulates, store_matrix_sync writes the result back.
// Each fragment's elements are rounded to TF32 (__float_to_tf32) after loading.
//
// Around the tensor cores it is kernel 10's design with four stages instead of two:
// the tensor cores consume a tile so fast that one tile in flight is not enough to
// hide the latency of global memory. Block tile 256×128, depth 16; 8 warps, each
// owning a 64×64 warp tile of 4×4 fragments. Both tiles keep their global layout in
// shared memory (A row-major, as WMMA's row_major matrix_a fragment expects), so
// every copy is a cp.async. At the end the accumulators go through shared memory, so
// that the store to C can apply α and β and skip the entries outside C.
//
// Only op = N is implemented here. On Hopper, the fastest tensor-core path is the
// warpgroup instruction `wgmma` (sm_90a) fed by the tensor memory accelerator; the
// docs page discusses why this kernel, on `mma.sync`-class instructions, stops short
// of cuBLAS.

#include "gemm.h"

#include <cuda_runtime.h>

namespace step4
{
  void launch_12_tensor_cores_tf32(const GemmArgs<float> &g, cudaStream_t stream);
} // namespace step4
