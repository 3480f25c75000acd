#pragma once
// @sect3{Rectangular and transposed shapes}
//
// Square products are what benchmarks show; real uses are often not square. These
// shapes are the kind later steps need: a tall product with a short inner dimension (a
// rank-k update of a trailing matrix), AᵀB and ABᵀ (forming HᵀH for the deblurring
// step), and a shape that is not a multiple of any tile. Only the kernels that accept
// transposes run here (10, 11 and 15, those of them asked for); α and β are not (1, 0)
// here, so the scaling of C is checked too.

#include "sweep/settings.h"
#include "sweep/tables.h"

#include <lab/checks.h>
#include <lab/cublas_gemm.h>

#include <vector>

namespace step4
{
  // The shapes of a full sweep, or the smaller ones of quick mode.
  std::vector<GemmShape> shapes(bool quick);

  // The kernels that run on them: each a column of shapes_float.dat.
  std::vector<const GemmKernel<float> *> shape_kernels(const Settings &settings);

  // Runs cuBLAS and shape_kernels() on every shape, one console line each, and writes
  // shapes_float.dat.
  void run_shapes(const Settings &settings, lab::Cublas &cublas, Tables &tables,
                  lab::Checks &checks);
} // namespace step4
