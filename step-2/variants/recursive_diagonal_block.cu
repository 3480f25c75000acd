#include "recursive_diagonal_block.cuh"

#include "base_block_in_registers.cuh"
#include "diagonal_block_inverse.cuh"
#include "diagonal_block_one_kernel.cuh"

#include <lab/block_copy.h>

namespace step2
{
  template <typename T>
  void factorize_and_invert_by_halves(T *a, int w, int ld, T *x, int ldx, T *scratch, int *info,
                                      int column_offset, BaseBlock base, const lab::Gemm<T> &gemm,
                                      cudaStream_t s)
  {
    if (w <= base_block_rows)
      {
        if (base == BaseBlock::in_registers)
          factorize_and_invert_in_registers(a, w, ld, x, ldx, info, column_offset, s);
        else
          {
            factorize_diagonal_block_one_kernel(a, w, ld, info, column_offset, s);
            invert_lower_block(a, w, ld, x, ldx, scratch, info, gemm, s);
          }
        return;
      }
    // The first half a whole number of inverse tiles, so that the base blocks' tile
    // inverses stay aligned with the block.
    const int h = ceil_div(w / 2, inverse_tile) * inverse_tile, rest = w - h;
    T *const a21 = a + static_cast<long>(h) * ld, *const a22 = a21 + h;
    T *const x21 = x + static_cast<long>(h) * ldx, *const x22 = x21 + h;
    // 1. L_11, X_11.
    factorize_and_invert_by_halves(a, h, ld, x, ldx, scratch, info, column_offset, base, gemm, s);
    // 2. L_21 = A_21 X_11^T, from a copy of A_21.
    lab::copy_block(scratch, h, a21, ld, rest, h, s);
    gemm(lab::gemm_args<T>({rest, h, h, lab::Op::none, lab::Op::transpose}, 1, scratch, h, x, ldx, 0, a21, ld), s);
    // 3. A_22 -= L_21 L_21^T.
    gemm(lab::gemm_args<T>({rest, rest, h, lab::Op::none, lab::Op::transpose}, -1, a21, ld, a21, ld, 1, a22, ld), s);
    // 4. L_22, X_22.
    factorize_and_invert_by_halves(a22, rest, ld, x22, ldx, scratch, info, column_offset + h, base, gemm, s);
    // 5. X_21 = -X_22 (L_21 X_11).
    gemm(lab::gemm_args<T>({rest, h, h}, 1, a21, ld, x, ldx, 0, scratch, h), s);
    gemm(lab::gemm_args<T>({rest, h, rest}, -1, x22, ldx, scratch, h, 0, x21, ldx), s);
  }

  template void factorize_and_invert_by_halves(float *, int, int, float *, int, float *, int *, int, BaseBlock,
                                               const lab::Gemm<float> &, cudaStream_t);
  template void factorize_and_invert_by_halves(double *, int, int, double *, int, double *, int *, int, BaseBlock,
                                               const lab::Gemm<double> &, cudaStream_t);
} // namespace step2
