#pragma once
// @sect3{What one size yields}
//
// Everything the program measures at one size, by name: the program fills it in
// stages (the CPU, cuSOLVER, the variants, variant 1's kernels, variant 6's solve),
// prints each line as it comes, and hands the whole to the tables (tables.h), which
// pick the fields their columns name. What did not run stays NaN, which the tables
// write as such and gnuplot skips.

#include "cholesky_variants.h"

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace step2
{
  constexpr double not_run = std::numeric_limits<double>::quiet_NaN();

  // One factorisation: the median time (kernels only on the GPU), the residual of its
  // factor, LAPACK's info (0, or the failing column + 1), and for a variant its speed in
  // percent of cuSOLVER's, timed alternately with it (gpu_timing.h).
  struct Factorisation
  {
    double ms = not_run;
    double residual = not_run;
    int info = 0;
    double percent_of_vendor = not_run;
    // The worst probe of every timed run's factor (gpu_timing.h), for a variant timed
    // beside cuSOLVER; none for the others.
    std::optional<double> probe = std::nullopt;
    // For a variant timed beside cuSOLVER: the median of cuSOLVER's runs in those pairs
    // (ms is the variant's median there, percent_of_vendor the median of the pairs'
    // ratios, which the two medians need not give).
    double vendor_ms_in_pairs = not_run;
  };

  // Variant 6 against cuSOLVER on A x = b (mixed_precision_comparison.h):
  // times to solution, the TF32 factorisation alone, and the backward errors
  // ‖b − A x‖ / (‖A‖_F ‖x‖). The vendor's IRS line is its fastest refinement method
  // (1 classical, 2 classical + GMRES, 3 GMRES, 4 GMRES + GMRES).
  struct MixedPrecisionComparison
  {
    double potrf_potrs_ms, error_potrs;
    double irs_ms, error_irs;
    int irs_iterations, irs_refinement;
    double mixed_ms, error_mixed;
    int rounds;
    double tf32_factor_ms, residual_tf32_factor;
  };

  template <typename T>
  struct SizeResult
  {
    SizeResult(int n_, double tolerance_)
      : n(n_), tolerance(tolerance_), variants(step2::variants<T>().size())
    {}

    int n;
    // c·n·ε, the bound every factorisation's residual is checked against.
    double tolerance;

    // On the host: the blocked loop and LAPACK, each up to its size limit.
    Factorisation cpu, lapack;

    // On the GPU, when there is one. The copies of A up and L down, the same for
    // every factorisation; cuSOLVER's potrf; each variant of `variants<T>()`, in the
    // list's order (NaN for those not asked for); the last of them again as a CUDA
    // graph, and the host time its capture took once.
    double copies_ms = not_run;
    Factorisation cusolver;
    std::vector<Factorisation> variants;
    Factorisation graph;
    double graph_capture_ms = not_run;

    // Variant 1 kernel by kernel, where it ran; variant 6's solve.
    std::optional<KernelTimes> breakdown;
    std::optional<MixedPrecisionComparison> mixed_precision;

    // Whether the GPU part ran: it starts by timing the copies.
    bool ran_on_gpu() const { return !std::isnan(copies_ms); }

    // The break-even of the 2011 course: variant 1, with its copies, faster than the
    // blocked loop on the CPU (false where either did not run).
    bool variant_1_beats_cpu() const { return variants.front().ms + copies_ms < cpu.ms; }
  };
} // namespace step2
