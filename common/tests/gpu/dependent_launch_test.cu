// GPU tests of lab/dependent_launch.h: a kernel launched to overlap the one before it
// runs its first part while that one is still running, and sees that one's writes once
// it has waited.
#include <lab/cuda_check.h>
#include <lab/dependent_launch.h>
#include <lab/device_buffer.h>
#include <lab/streams.h>
#include <lab_catch.h>

#include <cuda/atomic>

namespace
{
  // What the two kernels tell each other and the test.
  struct Exchange
  {
    int second_started;    // set by the second kernel before it waits
    int result;            // the first kernel's result: 42
    int first_saw_second;  // whether the first kernel saw the second start
    int result_before_wait, result_after_wait; // what the second kernel read
  };
  constexpr int the_result = 42;

  using Shared = cuda::atomic_ref<int, cuda::thread_scope_device>;

  // Lets the next kernel start, then waits a bounded time (about a tenth of a second)
  // for it to say it has started, and only then writes its result. Launched the
  // ordinary way, the next kernel cannot start before this one ends, and the wait
  // times out.
  __global__ void first_kernel(Exchange *e)
  {
    lab::allow_next_kernel_to_start();
    const long long start = clock64();
    int seen = 0;
    while (!(seen = Shared(e->second_started).load(cuda::memory_order_acquire)) && clock64() - start < 200'000'000)
      ;
    e->first_saw_second = seen;
    e->result = the_result;
  }

  // Reads the first kernel's result before and after waiting for it; says that it has
  // started in between (a release: the read before cannot move after it).
  __global__ void second_kernel(Exchange *e)
  {
    const int before = Shared(e->result).load(cuda::memory_order_relaxed);
    Shared(e->second_started).store(1, cuda::memory_order_release);
    lab::wait_for_previous_kernel();
    e->result_before_wait = before;
    e->result_after_wait = e->result;
  }

  Exchange run_pair()
  {
    // Both kernels loaded first. CUDA loads a kernel's code when it is first needed
    // (lazy loading, the default), and loading may wait until the running kernels have
    // finished: the second kernel's first launch would then wait for the first kernel,
    // which waits for it. (The course's solves launch the same kernels again and again;
    // only a program's first launch of each can meet this.)
    cudaFuncAttributes attributes{};
    LAB_CHECK(cudaFuncGetAttributes(&attributes, first_kernel));
    LAB_CHECK(cudaFuncGetAttributes(&attributes, second_kernel));
    lab::DeviceBuffer<Exchange> exchange(1);
    LAB_CHECK(cudaMemset(exchange.data(), 0, sizeof(Exchange)));
    lab::CudaStream stream;
    first_kernel<<<1, 1, 0, stream.get()>>>(exchange.data());
    LAB_CHECK_LAUNCH();
    lab::launch_overlapping_previous<second_kernel>(1, 1, 0, stream.get(), exchange.data());
    LAB_CHECK(cudaStreamSynchronize(stream.get()));
    Exchange host{};
    exchange.copy_to_host(&host, 1);
    return host;
  }
} // namespace

TEST_CASE("dependent_launch: the second kernel runs beside the first, and sees its result only after waiting")
{
  const Exchange e = run_pair();
  // Whatever the GPU: after the wait, the first kernel's result is there.
  CHECK(e.result_after_wait == the_result);
  if (lab::can_overlap_previous_kernel<second_kernel>())
    {
      // Hopper and later: the second kernel started while the first was still running
      // (the first saw it), and what it read before its wait was not yet the result.
      // That is why a kernel must not read, before its wait, what the kernel before it
      // writes.
      CHECK(e.first_saw_second == 1);
      CHECK(e.result_before_wait == 0);
    }
  else
    {
      // Earlier GPUs, or code for an earlier architecture: an ordinary launch, one
      // kernel after the other.
      CHECK(e.first_saw_second == 0);
      CHECK(e.result_before_wait == the_result);
    }
}
