#include <lab/cuda_check.h>
#include <lab/cusolver.h>

namespace lab
{
  Cusolver::Cusolver()
  {
    LAB_CHECK(cusolverDnCreate(&handle_));
    LAB_CHECK(cusolverDnCreateParams(&params_));
  }

  Cusolver::~Cusolver()
  {
    cusolverDnDestroyParams(params_);
    cusolverDnDestroy(handle_);
  }

  cusolverDnHandle_t Cusolver::bind(cudaStream_t stream)
  {
    LAB_CHECK(cusolverDnSetStream(handle_, stream));
    return handle_;
  }
} // namespace lab
