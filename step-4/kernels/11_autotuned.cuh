#pragma once
// @sect3{Kernel 11: tile sizes tuned for the GPU at hand}
//
// Kernel 10's tile sizes (block tile 128×128, depth 16, warp tile 64×32) are a guess.
// The best sizes depend on the GPU: its registers and shared memory per SM decide
// how many blocks fit at once (the occupancy), its number of SMs how evenly the
// tiles of C spread over them (a 4096² C has 1024 tiles of 128² for 132 SMs: 7.76
// waves, so the last wave leaves most SMs idle), and its memory system how deep the
// tiles must be to keep the arithmetic fed. Rather than guess, kernel 11 measures: it
// instantiates kernel 10 for a handful of configurations, times each on the GPU at
// hand, and keeps the fastest (the idea of autotuners such as ATLAS for CPUs, or
// CUTLASS's profiler for GPUs). "Fastest" is measured against a yardstick: each
// candidate runs alternately with kernel 10's own sizes, and the tuner ranks them by
// their speed relative to it (the median of the pairs' ratios, lab/timer.h). Timed
// one after the other, at the power limit of a GPU whose clock swings by a quarter
// within a second, two candidates 2% apart would trade places from run to run.
//
// Larger warp tiles (64×64) give each thread 8×8 pieces, 128 sums in registers: more
// reuse per shared-memory read but fewer threads per SM; larger block tiles halve the
// global traffic but make the last wave coarser. The tuner settles such trade-offs
// empirically. The program prints what it tried and what it chose.
//
// A fast wrong answer is no answer: every candidate's product is checked (on every
// entry, against cuBLAS DGEMM on the GPU, as the program checks every kernel), and
// only a candidate that passed can be chosen. Were no candidate to pass, kernel 11
// stays kernel 10.
//
// Only the common case is tuned: op(A) = A, op(B) = B and 16-byte aligned matrices.
// Anything else goes to kernel 10, which handles every case.

#include "gemm.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace step4
{
  // One configuration the tuner tries.
  struct TuningCandidate
  {
    std::string name;
    void (*launch)(const GemmArgs<float> &, cudaStream_t);
  };

  // The configurations, as instantiations of kernel 10.
  const std::vector<TuningCandidate> &tuning_candidates();

  // What the tuner measured for one candidate: its speed (from the median of its
  // times), its speed relative to kernel 10's sizes timed alternately with it (1.02:
  // 2% faster), and the error of its product against the reference with the check's
  // verdict (step4::gemm_error's error and tolerance, gemm_check.h).
  struct TuningResult
  {
    std::string name;
    double gflops;
    double relative_speed;
    double error;
    bool passed;
  };

  // Times each of @p candidates on an n×n×n product of random matrices alternately
  // with kernel 10 (a warm-up of pairs, then @p reps pairs), then poisons C, runs the
  // candidate once more and checks its product.
  std::vector<TuningResult> measure(const std::vector<TuningCandidate> &candidates, int n, int reps);

  // The index of the result that passed its check with the highest speed relative to
  // kernel 10, or −1 when none passed.
  int fastest_checked(const std::vector<TuningResult> &results);

  // Measures tuning_candidates() and makes the fastest that passed its check the one
  // kernel 11 uses from then on. Returns the measurements, in the order of
  // tuning_candidates().
  std::vector<TuningResult> autotune(int n, int reps);

  // The configuration kernel 11 uses now (kernel 10's until autotune() has run).
  const std::string &tuned_choice();

  void launch_11_autotuned(const GemmArgs<float> &g, cudaStream_t stream);
} // namespace step4
