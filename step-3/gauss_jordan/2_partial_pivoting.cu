#include "gauss_jordan/2_partial_pivoting.cuh"

namespace step3
{
  template <typename T>
  void invert_2_partial_pivoting(const GaussJordanArgs<T> &g)
  {
    find_scale(g);
    invert_by_row_operations(g, [&](int k) {
      largest_pivot<<<1, pivot_threads, 0, g.stream>>>(g.a, g.n, g.lda, k, negligible<T>(g.n), g.workspace, g.info);
      LAB_CHECK_LAUNCH();
    });
  }

  template void invert_2_partial_pivoting(const GaussJordanArgs<float> &);
  template void invert_2_partial_pivoting(const GaussJordanArgs<double> &);
} // namespace step3
