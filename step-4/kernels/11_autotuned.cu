// Kernel 11: the tuner (see 11_autotuned.cuh).
#include "kernels/11_autotuned.cuh"

#include "gemm_check.h"
#include "kernels/10_double_buffered.cuh"
#include "sweep/measurement.h"

namespace step4
{
  namespace
  {
    // Every candidate is kernel 10 with other tile sizes, in its fast variant only.
    template <int bm, int bn, int bk, int wm, int wn>
    TuningCandidate candidate()
    {
      using Config = TileConfig<bm, bn, bk, wm, wn>;
      return {std::to_string(bm) + "x" + std::to_string(bn) + "x" + std::to_string(bk) +
                ", warp " + std::to_string(wm) + "x" + std::to_string(wn),
              launch_double_buffered_variant<float, Config, Op::none, Op::none, true>};
    }

    int &chosen_index()
    {
      static int index = -1;
      return index;
    }
  } // namespace

  const std::vector<TuningCandidate> &tuning_candidates()
  {
    static const std::vector<TuningCandidate> candidates = {
      candidate<128, 128, 8, 64, 32>(),  candidate<128, 128, 16, 64, 32>(),
      candidate<128, 128, 16, 32, 64>(), candidate<128, 128, 16, 64, 64>(),
      candidate<128, 256, 16, 64, 64>(), candidate<256, 128, 16, 64, 64>(),
      candidate<128, 64, 16, 64, 32>(),  candidate<64, 128, 16, 32, 64>(),
    };
    return candidates;
  }

  // The product's inputs come from random_problem (A and B different: with A = B a
  // kernel that swapped its operands would pass). Each candidate is timed alternately
  // with kernel 10's sizes, the yardstick (lab/timer.h says why): candidates timed one
  // after the other would each see the clock of its own moment, which on a GPU at its
  // power limit moves by more than the candidates differ. This is how the sweep times
  // every kernel beside cuBLAS, and the tuner uses the same code, DeviceProblem's
  // run_beside (sweep/measurement.h): the candidate runs last, and once more alone
  // after C is poisoned, so that entries it never writes are NaN in the check (the
  // yardstick's right answer would hide them); the check runs on the GPU on every entry
  // where the GPU has the memory for it, else on the host (gemm_error, sampled by bands
  // at the tuning sizes).
  std::vector<TuningResult> measure(const std::vector<TuningCandidate> &candidates, int n, int reps)
  {
    const GemmShape shape{n, n, n};
    const GemmProblem<float> problem = random_problem<float>(shape, 1.0f, 0.0f, 4242);
    DeviceProblem<float> device(problem);
    const double tolerance = gemm_tolerance<float>(n);
    std::vector<TuningResult> results;
    for (const TuningCandidate &candidate : candidates)
      {
        const Measurement m = device.run_beside(reps, launch_10_double_buffered, candidate.launch);
        results.push_back({candidate.name, gflops(shape, m.ms), m.percent_of_vendor / 100, m.error,
                           m.error <= tolerance});
      }
    return results;
  }

  int fastest_checked(const std::vector<TuningResult> &results)
  {
    int best = -1;
    for (int i = 0; i < static_cast<int>(results.size()); ++i)
      if (results[i].passed && (best < 0 || results[i].relative_speed > results[best].relative_speed))
        best = i;
    return best;
  }

  std::vector<TuningResult> autotune(int n, int reps)
  {
    const std::vector<TuningResult> results = measure(tuning_candidates(), n, reps);
    chosen_index() = fastest_checked(results);
    return results;
  }

  const std::string &tuned_choice()
  {
    static const std::string untuned = "kernel 10's (not tuned, or no candidate passed its check)";
    return chosen_index() < 0 ? untuned : tuning_candidates()[chosen_index()].name;
  }

  void launch_11_autotuned(const GemmArgs<float> &g, cudaStream_t stream)
  {
    const bool common_case = g.shape.op_a == Op::none && g.shape.op_b == Op::none &&
                             allows_vector_loads(g.a, g.lda) &&
                             allows_vector_loads(g.b, g.ldb);
    if (common_case && chosen_index() >= 0)
      tuning_candidates()[chosen_index()].launch(g, stream);
    else
      launch_10_double_buffered(g, stream);
  }
} // namespace step4
