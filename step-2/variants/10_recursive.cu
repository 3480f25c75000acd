#include "10_recursive.cuh"

#include "4_right_looking_gemm.cuh"
#include "7_panel_by_halves.cuh"
#include "9_lower_triangle_update.cuh"
#include "tiles.cuh"

#include <lab/block_copy.h>

namespace step2
{
  namespace
  {
    // Entry (r, c) of a matrix stored by rows with leading dimension ld.
    template <typename T>
    T *at(T *a, int ld, int r, int c)
    {
      return a + static_cast<long>(r) * ld + c;
    }

    // Where a part of n columns made of panels nb wide is cut: after half its panels
    // (rounded up), so that both halves start on a panel.
    int first_half(int n, int nb) { return ceil_div(ceil_div(n, nb), 2) * nb; }

    // Step 2: X L^T = B for X, in place of B (m × n at b), where L (n × n at l, both
    // with leading dimension ld) is a factor made of whole panels nb wide whose
    // inverses are in @p inverses (rows from L's first, leading dimension nb). @p copy
    // holds m × nb.
    template <typename T>
    void solve_by_halves(const T *l, int ld, const T *inverses, int nb, int n, T *b, int m, T *copy,
                         const lab::Gemm<T> &gemm, cudaStream_t s)
    {
      if (n <= nb)
        { // one panel: X = B X_p^T, from a copy of B (a product cannot overwrite its input)
          lab::copy_block(copy, n, b, ld, m, n, s);
          gemm(lab::gemm_args<T>({m, n, n, lab::Op::none, lab::Op::transpose}, 1, copy, n, inverses, nb, 0, b, ld),
               s);
          return;
        }
      const int h = first_half(n, nb), rest = n - h;
      solve_by_halves(l, ld, inverses, nb, h, b, m, copy, gemm, s); // X_1 L_1^T = B_1
      gemm(lab::gemm_args<T>({m, rest, h, lab::Op::none, lab::Op::transpose}, -1, b, ld, at(l, ld, h, 0), ld, 1,
                             b + h, ld),
           s); // B_2 -= X_1 L_2^T
      solve_by_halves(at(l, ld, h, h), ld, inverses + static_cast<long>(h) * nb, nb, rest, b + h, m, copy, gemm,
                      s); // X_2 L_3^T = B_2
    }

    // Step 3: the lower triangle of C (m × m at c) loses P Pᵀ (P: m × k at p; both with
    // leading dimension ld). Halved while C has at least twice @p smallest rows.
    template <typename T>
    void subtract_lower_by_halves(T *c, const T *p, int ld, int m, int k, int smallest, const lab::Gemm<T> &gemm,
                                  cudaStream_t s)
    {
      if (m < 2 * smallest)
        {
          lab::GemmArgs<T> g = lab::gemm_args<T>({m, m, k, lab::Op::none, lab::Op::transpose}, -1, p, ld, p, ld, 1, c, ld);
          g.output = lab::Output::lower_triangle;
          gemm(g, s);
          return;
        }
      const int h = first_half(m, 64), rest = m - h;
      subtract_lower_by_halves(c, p, ld, h, k, smallest, gemm, s); // C_11
      gemm(lab::gemm_args<T>({rest, h, k, lab::Op::none, lab::Op::transpose}, -1, at(p, ld, h, 0), ld, p, ld, 1,
                             at(c, ld, h, 0), ld),
           s); // C_21 -= P_2 P_1^T
      subtract_lower_by_halves(at(c, ld, h, h), at(p, ld, h, 0), ld, rest, k, smallest, gemm, s); // C_22
    }

    // Steps 1 to 4 on the part of the matrix that @p part describes (its n, first
    // column and panel inverses), in panels part.panel_width wide; variant 9 on a part
    // of at most @p base rows.
    template <typename T>
    void factorize_recursively(const CholeskyArgs<T> &part, int base)
    {
      const int n = part.n, nb = part.panel_width, ld = part.ld;
      if (n <= base)
        {
          factorize_9_lower_triangle_update(part);
          return;
        }
      const int h = first_half(n, nb), rest = n - h;
      CholeskyArgs<T> first = part;
      first.n = h;
      factorize_recursively(first, base); // 1.
      T *const a21 = at(part.a, ld, h, 0);
      solve_by_halves(part.a, ld, part.panel_inverses, nb, h, a21, rest, part.workspace, part.gemm,
                      part.stream); // 2.
      subtract_lower_by_halves(at(part.a, ld, h, h), a21, ld, rest, h, 8 * nb, part.gemm, part.stream); // 3.
      CholeskyArgs<T> second = part;
      second.a = at(part.a, ld, h, h);
      second.n = rest;
      second.first_column = part.first_column + h;
      second.panel_inverses = part.panel_inverses + static_cast<long>(h) * nb;
      factorize_recursively(second, base); // 4.
    }
  } // namespace

  int recursion_base(int n, int panel_width) { return 16 * panel_by_halves_width(n, panel_width); }

  template <typename T>
  std::size_t recursive_workspace(int n, int panel_width)
  {
    const int nb = panel_by_halves_width(n, panel_width);
    return right_looking_workspace<T>(n, nb) + static_cast<std::size_t>(n) * nb;
  }

  template <typename T>
  void factorize_10_recursive(const CholeskyArgs<T> &args)
  {
    const int base = recursion_base(args.n, args.panel_width);
    if (args.n <= base || args.bandwidth >= 0)
      {
        factorize_9_lower_triangle_update(args);
        return;
      }
    // Every part in panels of the width variant 9 would take for the whole matrix; a
    // part of at most 16 of them keeps that width in variant 9 (panel_by_halves_width).
    CholeskyArgs<T> whole = args;
    whole.panel_width = panel_by_halves_width(args.n, args.panel_width);
    whole.first_column = 0;
    whole.panel_inverses = args.workspace + right_looking_workspace<T>(args.n, whole.panel_width);
    factorize_recursively(whole, base);
  }

  template std::size_t recursive_workspace<float>(int, int);
  template std::size_t recursive_workspace<double>(int, int);
  template void factorize_10_recursive(const CholeskyArgs<float> &);
  template void factorize_10_recursive(const CholeskyArgs<double> &);
} // namespace step2
