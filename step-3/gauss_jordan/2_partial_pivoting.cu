#include "gauss_jordan/2_partial_pivoting.cuh"

namespace step3
{
  template <typename T>
  void invert_2_partial_pivoting(const GaussJordanArgs<T> &g)
  {
    find_scale(g);
    invert_by_row_operations(g, [&](int k) { choose_largest_pivot(g, k); });
  }

  template void invert_2_partial_pivoting(const GaussJordanArgs<float> &);
  template void invert_2_partial_pivoting(const GaussJordanArgs<double> &);
} // namespace step3
