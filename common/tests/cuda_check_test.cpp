// Tests of lab/cuda_check.h: failed statuses throw lab::cuda_error naming call, error,
// file and line. These need no GPU: the statuses are made up, not returned by a device.
#include <lab/cuda_check.h>
#include <lab_catch.h>

#include "test_support.h"

#include <stdexcept>
#include <string>

using lab_test::contains;

TEST_CASE("cuda_check: a CUDA runtime error throws lab::cuda_error")
{
  CHECK_THROWS_AS(LAB_CHECK(cudaError_t(cudaErrorInvalidValue)), lab::cuda_error);

  int line = 0;
  const std::string message = lab_test::message_of<lab::cuda_error>([&] {
    line = __LINE__; LAB_CHECK(cudaError_t(cudaErrorInvalidValue));
  });
  INFO(message);
  REQUIRE(line > 0);
  CHECK(contains(message, "cudaError_t(cudaErrorInvalidValue) failed: "));
  // "... failed: invalid argument (cudaErrorInvalidValue) at <file>:<line>"
  CHECK(contains(message, std::string(" failed: ") + cudaGetErrorString(cudaErrorInvalidValue) +
                            " (cudaErrorInvalidValue) at "));
  CHECK(contains(message, "cuda_check_test.cpp:" + std::to_string(line)));
  // One line.
  CHECK(message.find('\n') == std::string::npos);
}

TEST_CASE("cuda_check: lab::cuda_error is a std::runtime_error")
{
  CHECK_THROWS_AS(LAB_CHECK(cudaError_t(cudaErrorMemoryAllocation)), std::runtime_error);
  const lab::cuda_error e("cudaMalloc(&p, bytes)", "out of memory", "file.cu", 42);
  CHECK(std::string(e.what()) == "cudaMalloc(&p, bytes) failed: out of memory at file.cu:42");
}

TEST_CASE("cuda_check: success does not throw, and the call is evaluated once")
{
  CHECK_NOTHROW(LAB_CHECK(cudaSuccess));
  CHECK_NOTHROW(LAB_CHECK(CUBLAS_STATUS_SUCCESS));
  CHECK_NOTHROW(LAB_CHECK(CUSOLVER_STATUS_SUCCESS));
  int calls = 0;
  auto call = [&] {
    ++calls;
    return cudaSuccess;
  };
  LAB_CHECK(call());
  CHECK(calls == 1);
  auto failing = [&] {
    ++calls;
    return CUBLAS_STATUS_INVALID_VALUE;
  };
  CHECK_THROWS_AS(LAB_CHECK(failing()), lab::cuda_error);
  CHECK(calls == 2);
}

TEST_CASE("cuda_check: a cuBLAS status throws, naming it")
{
  const std::string message = lab_test::message_of<lab::cuda_error>(
    [] { LAB_CHECK(CUBLAS_STATUS_NOT_INITIALIZED); });
  INFO(message);
  CHECK(contains(message, "CUBLAS_STATUS_NOT_INITIALIZED failed: "));
  CHECK(contains(message, "failed: CUBLAS_STATUS_NOT_INITIALIZED"));
  CHECK(contains(message, "cuda_check_test.cpp:"));
}

TEST_CASE("cuda_check: a cuSOLVER status throws, naming it and its number")
{
  const std::string message = lab_test::message_of<lab::cuda_error>(
    [] { LAB_CHECK(CUSOLVER_STATUS_INVALID_VALUE); });
  INFO(message);
  CHECK(contains(message, "failed: CUSOLVER_STATUS_INVALID_VALUE (status " +
                            std::to_string(int(CUSOLVER_STATUS_INVALID_VALUE)) + ")"));
  CHECK(contains(message, "cuda_check_test.cpp:"));

  // A status without a name still says cuSOLVER and the number.
  const std::string other = lab_test::message_of<lab::cuda_error>(
    [] { LAB_CHECK(CUSOLVER_STATUS_ZERO_PIVOT); });
  INFO(other);
  CHECK(contains(other, "(status " + std::to_string(int(CUSOLVER_STATUS_ZERO_PIVOT)) + ")"));
}
