#pragma once
/// @file
/// @brief Which arithmetic the vendor's routines run in: the math mode and emulation
/// strategy of a cuBLAS and a cuSOLVER handle, in one console line.
///
/// Since CUDA 13 the libraries can emulate a precision on faster units: cuBLAS FP32 by
/// products of BF16 pieces and FP64 in fixed point on the integer tensor cores,
/// cuSOLVER FP32 by BF16. Whether they do depends on a handle's math mode, its emulation
/// strategy (DEFAULT, which means PERFORMANT: emulate only where the library judges it
/// faster; or EAGER), and the environment variable CUBLAS_EMULATION_STRATEGY, which
/// overrides the default. A yardstick that silently ran emulated would compare the
/// course's kernels with another algorithm, so every step that calls the vendor prints
/// the settings its calls run under. The course never changes them on its handles (its
/// TF32 products ask for TF32 through the compute type of the call, and say so), so the
/// settings of a fresh handle are the ones every call ran in.

#include <string>

namespace lab
{
  /// "vendor math: cuBLAS default math, emulation strategy DEFAULT (...); cuSOLVER ...",
  /// read from fresh handles; needs a GPU.
  std::string vendor_math_line();
} // namespace lab
