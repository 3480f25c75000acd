#pragma once
// @sect3{What the program was asked to do}
//
// The program that compares the kernels with cuBLAS (step-4.cu) is built from the
// pieces in this folder, one stage of its sweep each. What they all read is this: the
// common options (lab::CommonOptions) and step-4's own, one kernel by name or number,
// a float kernel (1 to 12, 15, 16) or a double one (13, 14); and the device, looked
// for once at the start (`use_gpu`: whether there is one to use).

#include "gemm_kernels.h"

#include <lab/cli.h>
#include <lab/device.h>

#include <string>

namespace step4
{
  struct Settings
  {
    lab::CommonOptions options;
    std::string kernel;
    bool cholesky = false; // --cholesky: kernel 20 inside step-2's Cholesky instead of the sweep
    lab::DeviceInfo device;
    bool use_gpu = false;

    // The full name of the kernel asked for.
    std::string chosen() const
    {
      const GemmKernel<float> *single = find_float_kernel(kernel);
      return single ? single->name : find_double_kernel(kernel)->name;
    }
    // Whether the sweep runs this kernel: all of them, or the one asked for.
    bool runs(const std::string &name) const { return kernel.empty() || chosen() == name; }
    // Whether the float part (kernels 1 to 12, 15, 16) and the double part (13 and 14) run.
    bool runs_float() const
    {
      return options.wants_float() && (kernel.empty() || find_float_kernel(kernel));
    }
    bool runs_double() const
    {
      return options.wants_double() && (kernel.empty() || find_double_kernel(kernel));
    }
  };
} // namespace step4
