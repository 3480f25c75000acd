// The main function of every GPU test program. Without a usable CUDA device it exits
// with 77, which CTest reports as "skipped" (SKIP_RETURN_CODE 77): a machine without
// a GPU must never count GPU tests as passed. On a GPU machine (LAB_REQUIRE_GPU=1, see
// lab::gpu_required) a missing device is a failure instead, exit code 1: a driver
// problem must not turn the whole GPU suite into a quiet "skipped".
#if LAB_CATCH2_MAJOR >= 3
#  include <catch2/catch_session.hpp>
#else
#  define CATCH_CONFIG_RUNNER
#  include <catch2/catch.hpp>
#endif

#include <lab/device.h>
#include <lab/exercise.h>

#include <iostream>

int main(int argc, char **argv)
{
  const lab::DeviceInfo device = lab::query_device();
  if (!device.present && lab::gpu_required())
    {
      std::cout << "GPU tests FAILED: " << lab::describe(device)
                << ", and LAB_REQUIRE_GPU=1 asks for one\n";
      return 1;
    }
  if (!device.present)
    {
      std::cout << "GPU tests skipped: " << lab::describe(device) << '\n';
      return 77;
    }
  std::cout << "GPU: " << lab::describe(device) << '\n';
  const int failed = Catch::Session().run(argc, argv);
  // In a student edition, which exercises are not done yet (lab/exercise.h).
  if (failed != 0)
    lab::print_exercises_not_done(std::cout);
  return failed;
}
