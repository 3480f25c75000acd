#include "diagonal_block_inverse.cuh"

#include <algorithm>

namespace step2
{
  template <typename T>
  void invert_lower_block(const T *l, int n, int ld, T *x, int ldx, T *scratch,
                          const int *info, const lab::Gemm<T> &gemm, cudaStream_t stream)
  {
    constexpr int tile = inverse_tile;
    const int tiles = ceil_div(n, tile);
    launch_invert_diagonal_tiles(l, n, ld, x, ldx, TileLayout::on_diagonal, info, stream);
    for (int i = 1; i < tiles; ++i)
      {
        const int row = i * tile, rows = std::min(tile, n - row);
        // scratch = L_i,0:i X_0:i,0:i   (rows × row, inner dimension row)
        lab::GemmArgs<T> g;
        g.shape = {rows, row, row};
        g.a = l + static_cast<long>(row) * ld;
        g.lda = ld;
        g.b = x;
        g.ldb = ldx;
        g.c = scratch;
        g.ldc = row;
        gemm(g, stream);
        // X_i,0:i = -X_ii scratch   (rows × row, inner dimension rows)
        g.shape = {rows, row, rows};
        g.alpha = -1;
        g.a = x + static_cast<long>(row) * ldx + row;
        g.lda = ldx;
        g.b = scratch;
        g.ldb = row;
        g.c = x + static_cast<long>(row) * ldx;
        g.ldc = ldx;
        gemm(g, stream);
      }
  }

  template void invert_lower_block(const float *, int, int, float *, int, float *, const int *,
                                   const lab::Gemm<float> &, cudaStream_t);
  template void invert_lower_block(const double *, int, int, double *, int, double *,
                                   const int *, const lab::Gemm<double> &, cudaStream_t);
} // namespace step2
