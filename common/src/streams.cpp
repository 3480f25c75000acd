#include <lab/cuda_check.h>
#include <lab/streams.h>

namespace lab
{
  CudaStream::CudaStream(Priority priority)
  {
    // Smaller numbers are more urgent; the range depends on the GPU.
    int least = 0, greatest = 0;
    LAB_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    LAB_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking,
                                           priority == Priority::high ? greatest : least));
  }

  CudaStream::~CudaStream() { cudaStreamDestroy(stream_); }

  void wait_for(cudaStream_t stream, CudaEvent &marker, cudaStream_t waiting)
  {
    marker.record(stream);
    LAB_CHECK(cudaStreamWaitEvent(waiting, marker.get(), 0));
  }

  CudaGraph::~CudaGraph()
  {
    if (executable_)
      cudaGraphExecDestroy(executable_);
  }

  void CudaGraph::capture(const std::function<void(cudaStream_t)> &enqueue)
  {
    // Capture needs a stream of its own: the legacy default stream cannot be captured.
    CudaStream stream;
    LAB_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
    cudaGraph_t graph = nullptr;
    try
      {
        enqueue(stream.get());
      }
    catch (...)
      {
        cudaStreamEndCapture(stream.get(), &graph); // leave the stream usable
        if (graph)
          cudaGraphDestroy(graph);
        throw;
      }
    LAB_CHECK(cudaStreamEndCapture(stream.get(), &graph));
    if (executable_)
      LAB_CHECK(cudaGraphExecDestroy(executable_));
    executable_ = nullptr;
    // A kernel captured from a stream of high priority (step-2's panel chain) keeps
    // that priority in the graph only when asked to: by default every node runs at the
    // priority of the stream the graph is launched into, and the chain then queues
    // behind the thousands of blocks of the trailing update.
    const cudaError_t status = cudaGraphInstantiate(&executable_, graph, cudaGraphInstantiateFlagUseNodePriority);
    cudaGraphDestroy(graph);
    LAB_CHECK(status);
  }

  void CudaGraph::launch(cudaStream_t stream) const { LAB_CHECK(cudaGraphLaunch(executable_, stream)); }
} // namespace lab
