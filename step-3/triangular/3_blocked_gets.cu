#include "triangular/3_blocked_gets.cuh"
#include "triangular/identity_and_singular_checks.cuh"

#include <variants/diagonal_block_inverse.cuh> // step-2: the 64×64 tile inverses

#include <algorithm>

namespace step3
{
  constexpr int block = step2::inverse_tile;

  template <typename T>
  std::size_t blocked_gets_workspace(int n)
  {
    return static_cast<std::size_t>(block) * n;
  }

  template <typename T>
  void invert_3_blocked_gets(const InverseArgs<T> &args)
  {
    const int n = args.n, ld = args.ld, ldx = args.ldx;
    const T *l = args.l;
    T *x = args.x;
    const auto at = [](auto *m, int ldm, int r, int c) { return m + static_cast<long>(r) * ldm + c; };
    check_diagonal(l, n, ld, args.info, args.stream);
    set_to_zero(x, n, ldx, args.stream);
    step2::launch_invert_diagonal_tiles(l, n, ld, x, ldx, step2::TileLayout::on_diagonal, args.info,
                                        args.stream);
    // @exercise{blocked_gets_products, 3}
    // GETS on block rows, with its flops in matrix products (`args.gemm` on
    // `args.stream`). The diagonal blocks X_kk are already inverted in x, whose other
    // entries are zero. For each block row k of block = 64 rows starting at row (the
    // last may be shorter): unless k = 0, copy its first row columns, Y_k,0:k, to
    // `args.workspace` (`cudaMemcpy2DAsync`) and overwrite them with the product X_kk
    // Y_k,0:k (step 1 above); then, if rows remain below it, subtract from all of
    // them at once L_ik X_k,0:k+1 with one product of alpha -1 and beta 1, L_ik
    // read from l below the diagonal block (step 2). Lay out each `lab::GemmArgs` with
    // the `at()` helper and the leading dimensions ld, ldx and row.
    for (int row = 0; row < n; row += block)
      {
        const int rows = std::min(block, n - row), below = n - row - rows;
        if (row > 0)
          {
            // Step 1: X_k,0:k = X_kk Y_k,0:k, with Y_k,0:k copied aside first.
            T *y = args.workspace;
            LAB_CHECK(cudaMemcpy2DAsync(y, row * sizeof(T), at(x, ldx, row, 0), ldx * sizeof(T),
                                        row * sizeof(T), rows, cudaMemcpyDeviceToDevice, args.stream));
            lab::GemmArgs<T> g;
            g.shape = {rows, row, rows};
            g.a = at(x, ldx, row, row);
            g.lda = ldx;
            g.b = y;
            g.ldb = row;
            g.c = at(x, ldx, row, 0);
            g.ldc = ldx;
            args.gemm(g, args.stream);
          }
        if (below > 0)
          {
            // Step 2: Y_i,0:k+1 -= L_ik X_k,0:k+1 for every block row i below k.
            lab::GemmArgs<T> g;
            g.shape = {below, row + rows, rows};
            g.alpha = -1;
            g.beta = 1;
            g.a = at(l, ld, row + rows, row);
            g.lda = ld;
            g.b = at(x, ldx, row, 0);
            g.ldb = ldx;
            g.c = at(x, ldx, row + rows, 0);
            g.ldc = ldx;
            args.gemm(g, args.stream);
          }
      }
    // @end-exercise
    erase_if_singular(x, n, ldx, args.info, args.stream);
  }

  template std::size_t blocked_gets_workspace<float>(int);
  template std::size_t blocked_gets_workspace<double>(int);
  template void invert_3_blocked_gets(const InverseArgs<float> &);
  template void invert_3_blocked_gets(const InverseArgs<double> &);
} // namespace step3
