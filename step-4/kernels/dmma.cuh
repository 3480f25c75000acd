#pragma once
// @sect3{One DMMA instruction (kernels 14 and 19)}
//
// The FP64 tensor cores' instruction, `mma.sync` with `.f64` operands, in each shape
// the course tries (14_tensor_cores_fp64.cuh says which thread holds which value),
// and the epilogue that writes a warp's sums to C.

#include "gemm.h"

namespace step4
{
  // Each shape is a struct with its depth k and the instruction, in inline PTX:
  // `asm("..." : outputs : inputs)`, where "+d" marks a double that is read and
  // written (the sums of C) and "d" a double that is only read. A thread passes its
  // K/2 values of A, its K/4 values of B and its 4 sums (the layout in 14_tensor_cores_fp64.cuh).
  // The oldest GPU whose PTX has the shape is `arch`; below it the body is empty, and
  // the launcher never runs such a kernel.
  struct DmmaM8n8k4Pair
  {
    // The A100's only shape, twice: rows 0 to 7 of the 16-row fragment, then rows 8
    // to 15 (with the second value of A and the second pair of sums).
    static constexpr int k = 4, arch = 80;
    __device__ static void mma(double (&c)[4], const double (&a)[2], const double (&b)[1])
    {
#if __CUDA_ARCH__ >= 800
      asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
          : "+d"(c[0]), "+d"(c[1])
          : "d"(a[0]), "d"(b[0]));
      asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
          : "+d"(c[2]), "+d"(c[3])
          : "d"(a[1]), "d"(b[0]));
#endif
    }
  };

  struct DmmaM16n8k4
  {
    static constexpr int k = 4, arch = 90;
    __device__ static void mma(double (&c)[4], const double (&a)[2], const double (&b)[1])
    {
#if __CUDA_ARCH__ >= 900
      asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
          "{%0,%1,%2,%3};"
          : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
          : "d"(a[0]), "d"(a[1]), "d"(b[0]));
#endif
    }
  };

  struct DmmaM16n8k8
  {
    static constexpr int k = 8, arch = 90;
    __device__ static void mma(double (&c)[4], const double (&a)[4], const double (&b)[2])
    {
#if __CUDA_ARCH__ >= 900
      asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
          "{%8,%9}, {%0,%1,%2,%3};"
          : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
          : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#endif
    }
  };

  struct DmmaM16n8k16
  {
    static constexpr int k = 16, arch = 90;
    __device__ static void mma(double (&c)[4], const double (&a)[8], const double (&b)[4])
    {
#if __CUDA_ARCH__ >= 900
      asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
          "{%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};"
          : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
          : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]),
            "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
#endif
    }
  };

  // A warp's sums, written to C (kernels 14 and 19): sum[i][j][v] is entry
  // (g + 8(v / 2), 2t + v % 2) of fragment (i, j), and `row(i, v)` and `column(j, v)`
  // say which entry of C that is for this thread (the fragments' layout is in
  // 14_tensor_cores_fp64.cuh). Entries outside C are not written.
  template <int frags_m, int frags_n, typename Row, typename Column>
  __device__ void store_sums(const GemmArgs<double> &g, const double (&sum)[frags_m][frags_n][4],
                             Row row, Column column)
  {
#pragma unroll
    for (int i = 0; i < frags_m; ++i)
#pragma unroll
      for (int j = 0; j < frags_n; ++j)
#pragma unroll
        for (int v = 0; v < 4; ++v)
          {
            const int r = row(i, v), c = column(j, v);
            if (r < g.shape.m && c < g.shape.n)
              g.store(r, c, sum[i][j][v]);
          }
  }
} // namespace step4
