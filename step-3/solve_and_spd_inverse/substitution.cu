#include "solve_and_spd_inverse/substitution.h"
#include "solve_and_spd_inverse/chained_substitution.cuh"
#include "triangular/identity_and_singular_checks.cuh"

#include <variants/diagonal_block_inverse.cuh> // step-2: the 64×64 tile inverses

#include <algorithm>
#include <stdexcept>
#include <string>

namespace step3
{
  namespace
  {
    constexpr int block = substitution_block;
    static_assert(block == step2::inverse_tile, "a block is a tile of step-2's inverses");

    bool is_chained(Substitution method)
    {
      return method == Substitution::chained || method == Substitution::chained_without_clusters;
    }

    // One triangle, op(L)^{-1} B in place, enqueued after the tile inverses (in the
    // workspace) and the diagonal's check.
    template <typename T>
    void substitute(const T *l, int n, int ld, lab::Op op, T *b, int ldb, int nrhs, T *workspace,
                    const lab::Gemm<T> &gemm, cudaStream_t stream, int bandwidth, Substitution method)
    {
      const long reach = bandwidth < 0 ? n : bandwidth; // how far below the diagonal L has nonzeros
      const auto at = [](auto *m, int ldm, int r, int c) { return m + static_cast<long>(r) * ldm + c; };
      T *chain = workspace;
      T *inverses = workspace + chain_workspace_elements(n); // tile k at rows k·64 ... (n × 64)
      T *x = inverses + static_cast<long>(block) * n;        // the solution (n × nrhs)
      if (is_chained(method))
        {
          launch_chained_substitution(l, n, ld, op, bandwidth, inverses, b, ldb, chain, stream,
                                      method != Substitution::chained_without_clusters);
          return;
        }
      const bool forward = op == lab::Op::none;
      const int blocks = step2::ceil_div(n, block);
      for (int step = 0; step < blocks; ++step)
        {
          const int k = forward ? step : blocks - 1 - step;
          const int row = k * block, rows = std::min(block, n - row);
          // X_k = op(L_kk^{-1}) B_k. (The solution goes into its own array: a product
          // cannot write its input, and B_k in place would need a copy of it first, one
          // more launch per block, which for one right-hand side costs as much as the
          // products themselves.)
          lab::GemmArgs<T> g;
          g.shape = {rows, nrhs, rows, op};
          g.a = at(inverses, block, row, 0);
          g.lda = block;
          g.b = at(b, ldb, row, 0);
          g.ldb = ldb;
          g.c = at(x, nrhs, row, 0);
          g.ldc = nrhs;
          gemm(g, stream);
          // The block rows not yet solved, B_i -= op(L)_ik X_k: below k (forward) or
          // above k (backward).
          g.alpha = -1;
          g.beta = 1;
          g.b = at(x, nrhs, row, 0);
          g.ldb = nrhs;
          // (Of a band, only the rows below that L_ik reaches, or the columns left of
          // the block that L_ki reaches.)
          const int end = static_cast<int>(std::min<long>(n, row + rows + reach));
          const int start = static_cast<int>(std::max<long>(0, row - reach));
          if (forward && end > row + rows)
            { // B_i -= L_ik B_k for the rows below
              g.shape = {end - row - rows, nrhs, rows};
              g.a = at(l, ld, row + rows, row);
              g.c = at(b, ldb, row + rows, 0);
            }
          else if (!forward && start < row)
            { // B_i -= L_ki^T B_k for the rows above
              g.shape = {row - start, nrhs, rows, lab::Op::transpose};
              g.a = at(l, ld, row, start);
              g.c = at(b, ldb, start, 0);
            }
          else
            continue;
          g.lda = ld;
          g.ldc = ldb;
          gemm(g, stream);
        }
      LAB_CHECK(cudaMemcpy2DAsync(b, ldb * sizeof(T), x, nrhs * sizeof(T), nrhs * sizeof(T), n,
                                  cudaMemcpyDeviceToDevice, stream));
    }

    // What both entry points do around their substitutions: the method for nrhs (the
    // chained kernel refuses more than one right-hand side), then on the stream the
    // tile inverses and the diagonal's check before them, and B erased after them if L
    // was singular.
    //
    // For one right-hand side these few kernels are a tenth of the solve, and each may
    // start before the one before it has finished (lab/dependent_launch.h). The tile
    // inverses come first, without an info to read (a zero on the diagonal leaves Inf
    // or NaN in its tile, erased with B at the end); the check of the diagonal runs
    // beside them, since they do not write L, and waits for them before it finishes,
    // so that the chained kernels, launched after it, find the inverses final and
    // build their diagonal blocks before they wait; back substitution builds its own
    // beside forward's last blocks. The erase waits before it reads info.
    template <typename T, typename Substitutions>
    void around_substitutions(const T *l, int n, int ld, T *b, int ldb, int nrhs, T *workspace, int *info,
                              cudaStream_t stream, Substitution method, Substitutions substitutions)
    {
      if (is_chained(method) && nrhs != 1)
        throw std::invalid_argument("the chained substitution solves for one right-hand side, not " +
                                    std::to_string(nrhs));
      if (method == Substitution::fastest)
        method = nrhs == 1 ? Substitution::chained : Substitution::blocked;
      if (is_chained(method))
        reset_chain_workspace(workspace, n, stream);
      step2::launch_invert_diagonal_tiles(l, n, ld, workspace + chain_workspace_elements(n), block,
                                          step2::TileLayout::stacked, nullptr, stream);
      check_diagonal(l, n, ld, info, stream, true);
      substitutions(method);
      erase_if_singular(b, n, ldb, info, stream, nrhs);
    }
  } // namespace

  // The chained kernel's workspace first, then the stacked tile inverses and the solution.
  std::size_t substitution_workspace(int n, int nrhs)
  {
    return chain_workspace_elements(n) + static_cast<std::size_t>(block) * n + static_cast<std::size_t>(n) * nrhs;
  }

  template <typename T>
  void solve_lower(const T *l, int n, int ld, lab::Op op, T *b, int ldb, int nrhs, T *workspace, int *info,
                   const lab::Gemm<T> &gemm, cudaStream_t stream, int bandwidth, Substitution method)
  {
    around_substitutions(l, n, ld, b, ldb, nrhs, workspace, info, stream, method, [&](Substitution chosen) {
      substitute(l, n, ld, op, b, ldb, nrhs, workspace, gemm, stream, bandwidth, chosen);
    });
  }

  template <typename T>
  void solve_with_cholesky_factor(const T *l, int n, int ld, T *b, int ldb, int nrhs, T *workspace, int *info,
                                  const lab::Gemm<T> &gemm, cudaStream_t stream, int bandwidth,
                                  Substitution method)
  {
    around_substitutions(l, n, ld, b, ldb, nrhs, workspace, info, stream, method, [&](Substitution chosen) {
      substitute(l, n, ld, lab::Op::none, b, ldb, nrhs, workspace, gemm, stream, bandwidth, chosen);
      substitute(l, n, ld, lab::Op::transpose, b, ldb, nrhs, workspace, gemm, stream, bandwidth, chosen);
    });
  }

  template void solve_lower(const float *, int, int, lab::Op, float *, int, int, float *, int *,
                            const lab::Gemm<float> &, cudaStream_t, int, Substitution);
  template void solve_lower(const double *, int, int, lab::Op, double *, int, int, double *, int *,
                            const lab::Gemm<double> &, cudaStream_t, int, Substitution);
  template void solve_with_cholesky_factor(const float *, int, int, float *, int, int, float *, int *,
                                           const lab::Gemm<float> &, cudaStream_t, int, Substitution);
  template void solve_with_cholesky_factor(const double *, int, int, double *, int, int, double *, int *,
                                           const lab::Gemm<double> &, cudaStream_t, int, Substitution);
} // namespace step3
