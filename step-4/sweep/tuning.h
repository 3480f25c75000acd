#pragma once
// @sect3{Kernel 11's tuning}
//
// Before the sweep, the tuner (kernels/11_autotuned.cuh) times each candidate
// configuration once at one size, alternately with kernel 10's, checks its product like
// any kernel's, and keeps the fastest relative to kernel 10 that passed for the rest of
// the run. A candidate that fails is a failed
// check of the program.

#include "sweep/settings.h"

#include <lab/checks.h>

namespace step4
{
  // The size the tuner measures at (quick mode: a smaller one).
  constexpr int tuning_size = 4096;
  constexpr int quick_tuning_size = 1024;

  // Tunes kernel 11, one console line per candidate, then the one chosen.
  void tune_kernel_11(const Settings &settings, lab::Checks &checks);
} // namespace step4
