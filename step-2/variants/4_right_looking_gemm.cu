#include "4_right_looking_gemm.cuh"

#include "3_register_blocked_update.cuh"
#include "diagonal_block_inverse.cuh"

#include <algorithm>

namespace step2
{
  // Scratch: the inverse X and the inversion's products (nb×nb each), and the copy of
  // A_21 (n×nb).
  template <typename T>
  std::size_t right_looking_workspace(int n, int panel_width)
  {
    const std::size_t nb = std::min(n, panel_width);
    return 2 * nb * nb + static_cast<std::size_t>(n) * nb;
  }

  template <typename T>
  void factorize_4_right_looking_gemm(const CholeskyArgs<T> &args)
  {
    const int n = args.n, ld = args.ld, nb = std::min(args.n, args.panel_width);
    T *const x = args.workspace, *const scratch = x + static_cast<long>(nb) * nb;
    T *const copy = scratch + static_cast<long>(nb) * nb;
    const auto at = [&](int r, int c) { return args.a + static_cast<long>(r) * ld + c; };
    cudaStream_t s = args.stream;
    clear_info(args.info, s);

    for (int p = 0; p < n; p += nb)
      {
        const int w = std::min(nb, n - p); // this panel's width
        const int below = n - p - w;       // rows under its diagonal block
        // 1. The diagonal block.
        factorize_tiles_64(at(p, p), w, ld, args.info, p, s);
        if (below == 0)
          break;
        // 2. The panel below it: X = L_11^{-1}, then L_21 = A_21 X^T.
        LAB_CHECK(cudaMemsetAsync(x, 0, sizeof(T) * w * w, s));
        invert_lower_block(at(p, p), w, ld, x, w, scratch, args.info, args.gemm, s);
        LAB_CHECK(cudaMemcpy2DAsync(copy, sizeof(T) * w, at(p + w, p), sizeof(T) * ld,
                                    sizeof(T) * w, below, cudaMemcpyDeviceToDevice, s));
        lab::GemmArgs<T> g;
        g.shape = {below, w, w, lab::Op::none, lab::Op::transpose};
        g.a = copy;
        g.lda = w;
        g.b = x;
        g.ldb = w;
        g.c = at(p + w, p);
        g.ldc = ld;
        args.gemm(g, s);
        // 3. The trailing update, block column by block column: rows q..n-1 of columns
        //    q..q+wq-1 lose L_21(rows) L_21(columns)^T.
        for (int q = p + w; q < n; q += nb)
          {
            const int wq = std::min(nb, n - q);
            g.shape = {n - q, wq, w, lab::Op::none, lab::Op::transpose};
            g.alpha = -1;
            g.beta = 1;
            g.a = at(q, p);
            g.lda = ld;
            g.b = at(q, p);
            g.ldb = ld;
            g.c = at(q, q);
            g.ldc = ld;
            args.gemm(g, s);
          }
      }
  }

  template std::size_t right_looking_workspace<float>(int, int);
  template std::size_t right_looking_workspace<double>(int, int);
  template void factorize_4_right_looking_gemm(const CholeskyArgs<float> &);
  template void factorize_4_right_looking_gemm(const CholeskyArgs<double> &);
} // namespace step2
