#pragma once
/// @file
/// @brief Streams of one's own, and CUDA graphs: the tools of the variants that
/// overlap work (step-2's look-ahead) and that launch a long sequence of small pieces
/// of work at once.
///
/// A stream is a queue of GPU work that runs in order. Work in two different streams
/// may run at the same time; an event recorded in one stream and waited for in the
/// other (lab::wait_for) orders the two where the algorithm needs it, and nowhere
/// else.
///
/// A CUDA graph is a recorded sequence of launches. An algorithm that makes hundreds of
/// launches, each a few microseconds of work, spends a noticeable part of its time in
/// the host's launch calls and in the gaps between kernels. Captured once into a graph
/// (the launches are recorded, not run), the whole sequence is then launched by one
/// call, and the GPU walks it with less overhead per launch. A graph keeps the
/// arguments it was captured with: it replays the same pointers and sizes, so it suits
/// work that is repeated on the same buffers, which is what a benchmark and a solver
/// that factorises matrix after matrix in one place do.

#include <lab/timer.h>

#include <cuda_runtime.h>

#include <functional>

namespace lab
{
  /// A stream (RAII) that does not synchronise with the legacy default stream.
  class CudaStream
  {
  public:
    /// How urgent its work is when the GPU has more blocks waiting than it can run.
    enum class Priority
    {
      normal,
      high ///< its blocks are scheduled before those of normal streams
    };

    /// Creates the stream.
    explicit CudaStream(Priority priority = Priority::normal);
    /// Destroys it (its work is finished first, by the runtime).
    ~CudaStream();
    CudaStream(const CudaStream &) = delete;
    CudaStream &operator=(const CudaStream &) = delete;

    /// The underlying handle.
    cudaStream_t get() const { return stream_; }

  private:
    cudaStream_t stream_ = nullptr;
  };

  /// Makes the work enqueued on @p waiting from now on wait until @p stream has
  /// reached this point; @p marker is the event that carries the point across.
  void wait_for(cudaStream_t stream, CudaEvent &marker, cudaStream_t waiting);

  /// A sequence of GPU work captured once and launched as one graph (RAII).
  class CudaGraph
  {
  public:
    CudaGraph() = default;
    ~CudaGraph();
    CudaGraph(const CudaGraph &) = delete;
    CudaGraph &operator=(const CudaGraph &) = delete;

    /// Records what @p enqueue puts on the stream it is given (and on the streams
    /// that work forks to and joins back from) and prepares it for launching. Nothing
    /// runs. Replaces what was captured before.
    void capture(const std::function<void(cudaStream_t)> &enqueue);
    /// Enqueues the whole captured sequence on @p stream.
    void launch(cudaStream_t stream = nullptr) const;

  private:
    cudaGraphExec_t executable_ = nullptr;
  };
} // namespace lab
