#pragma once
// @sect3{Kernel 20 inside a factorisation}
//
// A product that beats DGEMM only on large operands is worth what the algorithm that
// calls it lets it be worth. `--cholesky` measures that for a double Cholesky, the
// course's own: step-2's variant 10, which cuts the matrix in halves so that its
// triangular solves and updates are products with inner dimensions up to n/2, run
// on five products, each timed alternately with cuSOLVER's dpotrf on the same matrix
// (step-2's timing: gpu_timing.h, a fresh scale 4^e of A before every run, every
// run's factor probed, the last one's residual checked in full against dpotrf's bound,
// c·n·ε with c = 4):
//  - variant 9, the panel-by-panel loop, on cuBLAS DGEMM (step-2's best until now);
//  - variant 10 on cuBLAS DGEMM: what the halves alone give;
//  - variant 10 on step4::gemm (kernel 19 for the products in double);
//  - variant 10 on step4::gemm_ozaki: kernel 20 for the products from 4096³ on,
//    kernel 19 for the rest;
//  - variant 10 on kernel 20 for the same products and cuBLAS DGEMM for the rest, the
//    fastest product for each: what kernel 20 adds.
// One more run of the last, untimed, counts the products kernel 20 took and their
// share of the flops. The table is `step-4/cholesky_kernel20.dat`.

#include "sweep/settings.h"

#include <lab/checks.h>
#include <lab/memory.h>

#include <vector>

namespace step4
{
  // The sizes `--cholesky` runs when none are given (quick: one small size).
  std::vector<int> cholesky_sizes(const Settings &settings);

  // Host and device memory of one size: A on the host three times (as made, the factor,
  // the residual's copy), on the device four (as made, the one factorised, the
  // residual's two); kernel 20's copies come on top and fall back to kernel 19 where
  // the GPU cannot hold them.
  lab::Memory cholesky_memory_needed(int n);

  void run_cholesky_on_kernel_20(const Settings &settings, const std::vector<int> &sizes, lab::Checks &checks);
} // namespace step4
