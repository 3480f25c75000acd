#include "7_panel_by_halves.cuh"
#include "8_base_block_in_registers.cuh"

namespace step2
{
  template <typename T>
  void factorize_8_base_block_in_registers(const CholeskyArgs<T> &args)
  {
    factorize_by_halves(args, BaseBlock::in_registers);
  }

  template void factorize_8_base_block_in_registers(const CholeskyArgs<float> &);
  template void factorize_8_base_block_in_registers(const CholeskyArgs<double> &);
} // namespace step2
