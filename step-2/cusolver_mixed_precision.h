#pragma once
// @sect3{cuSOLVER's mixed-precision solver, the yardstick of variant 6}
//
// Variant 6 solves A x = b with a TF32 factorisation refined to FP32 (or FP64)
// accuracy. The vendor has a solver of the same kind: cuSOLVER's iterative-refinement
// solver `cusolverDnIRSXgesv`, here with T (FP32 or FP64) as its main precision and
// TF32 as its lowest, the same two precisions as variant 6's. It factorises A by LU
// (it has no Cholesky form), so it does about twice the flops of a Cholesky, and then
// refines until LAPACK's test for a solve in T holds, its default tolerance:
// ‖b − A x‖∞ < √n ‖x‖∞ ‖A‖∞ ε. If 50 iterations do not get there it falls back to an
// LU in T and says so with a negative iteration count. Its refinement
// solver (classical, GMRES, or one inside the other) is a choice; the course uses the
// one `vendor-configurations` measured fastest on its GPU.
//
// A is the course's symmetric matrix, the same by rows and by columns; the call leaves
// it unchanged when the refinement converged (the TF32 factors live in the workspace).

#include <lab/cusolver.h>
#include <lab/device_buffer.h>

namespace step2
{
  template <typename T>
  class CusolverMixedPrecision
  {
  public:
    // The refinement solver the course uses (tools/vendor-configurations reads it).
    static constexpr cusolverIRSRefinement_t default_refinement = CUSOLVER_IRS_REFINE_CLASSICAL;

    // Prepares solves of n×n systems (leading dimension n) with one right-hand side.
    explicit CusolverMixedPrecision(int n, cusolverIRSRefinement_t refinement = default_refinement);
    ~CusolverMixedPrecision();
    CusolverMixedPrecision(const CusolverMixedPrecision &) = delete;
    CusolverMixedPrecision &operator=(const CusolverMixedPrecision &) = delete;

    // x = A⁻¹ b (all on the device); info (device) as LAPACK's getrf. Returns the
    // number of refinement iterations, negative when it fell back to T. The call
    // waits for the GPU (the iteration count comes back to the host).
    int solve(T *a, const T *b, T *x, int *info);

  private:
    int n_;
    lab::Cusolver cusolver_;
    cusolverDnIRSParams_t params_ = nullptr;
    cusolverDnIRSInfos_t infos_ = nullptr;
    std::size_t workspace_bytes_ = 0;
    lab::DeviceBuffer<unsigned char> workspace_;
  };
} // namespace step2
