// Kernel 11: the tuner (see 11_autotuned.cuh).
#include "kernels/11_autotuned.cuh"

#include "kernels/10_double_buffered.cuh"

#include <lab/device_buffer.h>
#include <lab/test_matrices.h>
#include <lab/timer.h>

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

  std::vector<TuningResult> autotune(int n, int reps)
  {
    const GemmShape shape{n, n, n};
    const lab::Matrix<float> host = lab::random_matrix<float>(n, n, 4242);
    lab::DeviceBuffer<float> a(host), b(host), c(host.size());
    const GemmArgs<float> g{shape, 1.0f, 0.0f, a.data(), n, b.data(), n, c.data(), n};

    std::vector<TuningResult> results;
    int best = 0;
    for (const TuningCandidate &candidate : tuning_candidates())
      {
        const double ms =
          lab::median_gpu_milliseconds(reps, [&] { candidate.launch(g, nullptr); });
        results.push_back({candidate.name, shape.flops() / (ms * 1e6)});
        if (results.back().gflops > results[best].gflops)
          best = int(results.size()) - 1;
      }
    chosen_index() = best;
    return results;
  }

  const std::string &tuned_choice()
  {
    static const std::string untuned = "kernel 10's (not tuned yet)";
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
