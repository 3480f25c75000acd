#pragma once
// @sect3{Variant 1: the thesis' Gauss–Jordan, a swap only on a zero pivot}
//
// The thesis' method as it decided on its pivots: A(k, k) stays the pivot unless it is
// exactly zero, and then the first row below with a nonzero entry in column k takes
// its place. The kernels are the three of `row_operations.cuh`, without the thesis'
// races; the pivot is chosen on the GPU instead of the host. The rule costs nothing
// and suffices for a diagonally dominant matrix (its pivots are never small), but on
// a matrix with a small pivot it loses every digit: `unstable_example.h`.

#include "gauss_jordan/gauss_jordan.h"

namespace step3
{
  template <typename T>
  void invert_1_thesis_swap_on_zero(const GaussJordanArgs<T> &args);
} // namespace step3
