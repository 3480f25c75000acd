// @sect3{The GPU version: one thread}
//
// The declaration that the main program sees. It is an ordinary C++ function: the
// kernel itself, and the `<<<...>>>` launch syntax that only nvcc understands, stay
// inside single_thread_cholesky.cu.
#pragma once

#include <lab/matrix.h>

namespace step1
{
  // Launches the factorisation of the n x n matrix at the device address @p a (rows
  // of length @p ld, lower triangle read and overwritten) on a single GPU thread.
  // LAPACK's info (see cholesky_in_place) is written to the device address @p info.
  //
  // The call returns as soon as the kernel is launched, before the GPU has started on
  // it: reading @p info or @p a back (cudaMemcpy) waits for it to finish. A bad launch
  // throws lab::cuda_error.
  template <typename T>
  void single_thread_cholesky(T *a, int n, int ld, int *info);

  // The whole round trip, untimed, for checks: copies the host matrix @p a to the
  // device, factorises it there on one thread, copies the result into @p factor and
  // returns LAPACK's info. (step-1.cu times the same three parts one by one.)
  template <typename T>
  int single_thread_cholesky(const lab::Matrix<T> &a, lab::Matrix<T> &factor);
} // namespace step1
