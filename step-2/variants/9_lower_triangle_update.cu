#include "7_panel_by_halves.cuh"
#include "9_lower_triangle_update.cuh"

namespace step2
{
  template <typename T>
  void factorize_9_lower_triangle_update(const CholeskyArgs<T> &args)
  {
    factorize_by_halves(args, BaseBlock::in_registers, RestOfUpdate::one_lower_triangle_product);
  }

  template void factorize_9_lower_triangle_update(const CholeskyArgs<float> &);
  template void factorize_9_lower_triangle_update(const CholeskyArgs<double> &);
} // namespace step2
