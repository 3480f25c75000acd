#include "substitution.h"
#include "triangular/frame.cuh"

#include <variants/diagonal_block_inverse.cuh> // step-2: the 64×64 tile inverses

#include <algorithm>

namespace step3
{
  namespace
  {
    constexpr int block = step2::inverse_tile;
  } // namespace

  std::size_t substitution_workspace(int n, int nrhs)
  {
    return static_cast<std::size_t>(block) * n + static_cast<std::size_t>(block) * nrhs;
  }

  template <typename T>
  void solve_lower(const T *l, int n, int ld, lab::Op op, T *b, int ldb, int nrhs, T *workspace, int *info,
                   const lab::Gemm<T> &gemm, cudaStream_t stream)
  {
    const auto at = [](auto *m, int ldm, int r, int c) { return m + static_cast<long>(r) * ldm + c; };
    T *inverses = workspace;                           // tile k at rows k·64 ... (n × 64)
    T *copy = workspace + static_cast<long>(block) * n; // one block row of B (64 × nrhs)
    check_diagonal(l, n, ld, info, stream);
    step2::launch_invert_diagonal_tiles(l, n, ld, inverses, block, step2::TileLayout::stacked, info, stream);
    const bool forward = op == lab::Op::none;
    const int blocks = step2::ceil_div(n, block);
    for (int step = 0; step < blocks; ++step)
      {
        const int k = forward ? step : blocks - 1 - step;
        const int row = k * block, rows = std::min(block, n - row);
        // B_k = op(L_kk^{-1}) B_k, through a copy of B_k (a product cannot write its input).
        LAB_CHECK(cudaMemcpy2DAsync(copy, nrhs * sizeof(T), at(b, ldb, row, 0), ldb * sizeof(T),
                                    nrhs * sizeof(T), rows, cudaMemcpyDeviceToDevice, stream));
        lab::GemmArgs<T> g;
        g.shape = {rows, nrhs, rows, op};
        g.a = at(inverses, block, row, 0);
        g.lda = block;
        g.b = copy;
        g.ldb = nrhs;
        g.c = at(b, ldb, row, 0);
        g.ldc = ldb;
        gemm(g, stream);
        // The block rows not yet solved: below k (forward) or above k (backward).
        g.alpha = -1;
        g.beta = 1;
        g.b = at(b, ldb, row, 0);
        g.ldb = ldb;
        if (forward && row + rows < n)
          { // B_i -= L_ik B_k for the rows below
            g.shape = {n - row - rows, nrhs, rows};
            g.a = at(l, ld, row + rows, row);
            g.c = at(b, ldb, row + rows, 0);
          }
        else if (!forward && row > 0)
          { // B_i -= L_ki^T B_k for the rows above
            g.shape = {row, nrhs, rows, lab::Op::transpose};
            g.a = at(l, ld, row, 0);
            g.c = b;
          }
        else
          continue;
        g.lda = ld;
        gemm(g, stream);
      }
    erase_if_singular(b, n, ldb, info, stream, nrhs);
  }

  template void solve_lower(const float *, int, int, lab::Op, float *, int, int, float *, int *,
                            const lab::Gemm<float> &, cudaStream_t);
  template void solve_lower(const double *, int, int, lab::Op, double *, int, int, double *, int *,
                            const lab::Gemm<double> &, cudaStream_t);
} // namespace step3
