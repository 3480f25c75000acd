#include "4_right_looking_gemm.cuh"

#include "3_register_blocked_update.cuh"
#include "diagonal_block_inverse.cuh"

#include <lab/block_copy.h>

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

  namespace
  {
    // Entry (r, c) of the matrix.
    template <typename T>
    T *entry(const CholeskyArgs<T> &args, int r, int c)
    {
      return args.a + static_cast<long>(r) * args.ld + c;
    }
  } // namespace

  template <typename T>
  PanelInverse<T> panel_inverse(const CholeskyArgs<T> &args, int p)
  {
    const int nb = std::min(args.n, args.panel_width), w = std::min(nb, args.n - p);
    if (args.panel_inverses == nullptr)
      return {args.workspace, w};
    return {args.panel_inverses + static_cast<long>(p) * nb, nb};
  }

  template <typename T>
  void solve_panel_below(const CholeskyArgs<T> &args, int p, cudaStream_t s)
  {
    const int n = args.n, ld = args.ld, nb = std::min(args.n, args.panel_width);
    const int w = std::min(nb, n - p);
    const int below = args.rows_end(p, w) - p - w;
    if (below == 0)
      return;
    const PanelInverse<T> x = panel_inverse(args, p);
    T *const copy = args.workspace + 2 * static_cast<long>(nb) * nb;
    lab::copy_block(copy, w, entry(args, p + w, p), ld, below, w, s);
    lab::GemmArgs<T> g;
    g.shape = {below, w, w, lab::Op::none, lab::Op::transpose};
    g.a = copy;
    g.lda = w;
    g.b = x.x;
    g.ldb = x.ld;
    g.c = entry(args, p + w, p);
    g.ldc = ld;
    args.gemm(g, s);
  }

  template <typename T>
  void factorize_panel(const CholeskyArgs<T> &args, int p, DiagonalBlockFactorization<T> diagonal,
                       cudaStream_t s)
  {
    const int n = args.n, ld = args.ld, nb = std::min(args.n, args.panel_width);
    const int w = std::min(nb, n - p);           // this panel's width
    T *const scratch = args.workspace + static_cast<long>(nb) * nb;
    const PanelInverse<T> x = panel_inverse(args, p);
    // 1. The diagonal block.
    diagonal(entry(args, p, p), w, ld, args.info, args.first_column + p, s);
    if (args.rows_end(p, w) == p + w)
      return; // nothing below it
    // 2. The panel below it: X = L_11^{-1}, then L_21 = A_21 X^T.
    LAB_CHECK(cudaMemsetAsync(x.x, 0, sizeof(T) * w * x.ld, s));
    invert_lower_block(entry(args, p, p), w, ld, x.x, x.ld, scratch, args.info, args.gemm, s);
    solve_panel_below(args, p, s);
  }

  template <typename T>
  void update_block_column(const CholeskyArgs<T> &args, int p, int w, int q, int wq,
                           const lab::Gemm<T> &gemm, cudaStream_t s)
  {
    const int rows = args.rows_end(p, w) - q;
    if (rows <= 0)
      return;
    lab::GemmArgs<T> g;
    g.shape = {rows, wq, w, lab::Op::none, lab::Op::transpose};
    g.alpha = -1;
    g.beta = 1;
    g.a = entry(args, q, p);
    g.lda = args.ld;
    g.b = entry(args, q, p);
    g.ldb = args.ld;
    g.c = entry(args, q, q);
    g.ldc = args.ld;
    gemm(g, s);
  }

  template <typename T>
  void update_lower_triangle(const CholeskyArgs<T> &args, int p, int w, int q, const lab::Gemm<T> &gemm,
                             cudaStream_t s)
  {
    const int rows = args.rows_end(p, w) - q;
    if (rows <= 0)
      return;
    lab::GemmArgs<T> g = lab::gemm_args<T>({rows, rows, w, lab::Op::none, lab::Op::transpose}, -1, entry(args, q, p),
                                           args.ld, entry(args, q, p), args.ld, 1, entry(args, q, q), args.ld);
    g.output = lab::Output::lower_triangle;
    gemm(g, s);
  }

  template <typename T>
  void factorize_4_right_looking_gemm(const CholeskyArgs<T> &args)
  {
    const int n = args.n, nb = std::min(args.n, args.panel_width);
    clear_info(args.info, args.stream);
    for (int p = 0; p < n; p += nb)
      {
        const int w = std::min(nb, n - p);
        factorize_panel(args, p, factorize_tiles_64<T>, args.stream);
        // 3. The trailing update, block column by block column (of a band matrix,
        //    only the columns the panel reaches).
        const int end = args.rows_end(p, w);
        for (int q = p + w; q < end; q += nb)
          update_block_column(args, p, w, q, std::min(nb, end - q), args.gemm, args.stream);
      }
  }

  template std::size_t right_looking_workspace<float>(int, int);
  template std::size_t right_looking_workspace<double>(int, int);
  template void factorize_panel(const CholeskyArgs<float> &, int, DiagonalBlockFactorization<float>,
                                cudaStream_t);
  template void factorize_panel(const CholeskyArgs<double> &, int, DiagonalBlockFactorization<double>,
                                cudaStream_t);
  template PanelInverse<float> panel_inverse(const CholeskyArgs<float> &, int);
  template PanelInverse<double> panel_inverse(const CholeskyArgs<double> &, int);
  template void solve_panel_below(const CholeskyArgs<float> &, int, cudaStream_t);
  template void solve_panel_below(const CholeskyArgs<double> &, int, cudaStream_t);
  template void update_block_column(const CholeskyArgs<float> &, int, int, int, int,
                                    const lab::Gemm<float> &, cudaStream_t);
  template void update_block_column(const CholeskyArgs<double> &, int, int, int, int,
                                    const lab::Gemm<double> &, cudaStream_t);
  template void update_lower_triangle(const CholeskyArgs<float> &, int, int, int, const lab::Gemm<float> &,
                                      cudaStream_t);
  template void update_lower_triangle(const CholeskyArgs<double> &, int, int, int, const lab::Gemm<double> &,
                                      cudaStream_t);
  template void factorize_4_right_looking_gemm(const CholeskyArgs<float> &);
  template void factorize_4_right_looking_gemm(const CholeskyArgs<double> &);
} // namespace step2
