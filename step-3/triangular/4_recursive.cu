#include "triangular/4_recursive.cuh"
#include "triangular/identity_and_singular_checks.cuh"
#include "triangular/triangular_products.h"

#include <variants/diagonal_block_inverse.cuh> // step-2: the 64×64 tile inverses

#include <algorithm>

namespace step3
{
  namespace
  {
    constexpr int tile = step2::inverse_tile;

    // The split of tiles [first, last): the first half gets the extra tile.
    int middle(int first, int last) { return first + (last - first + 1) / 2; }

    // Combines the inverted tiles [first, last) of X into the inverse of that diagonal
    // block: both halves first, then X_21 = -X_22 (L_21 X_11).
    template <typename T>
    void combine(const InverseArgs<T> &args, int first, int last)
    {
      if (last - first < 2)
        return;
      const int mid = middle(first, last);
      combine(args, first, mid);
      combine(args, mid, last);
      const int r0 = first * tile, r1 = mid * tile, r2 = std::min(last * tile, args.n);
      const int m1 = r1 - r0, m2 = r2 - r1;
      const auto l = [&](int r, int c) { return args.l + static_cast<long>(r) * args.ld + c; };
      const auto x = [&](int r, int c) { return args.x + static_cast<long>(r) * args.ldx + c; };
      T *w = args.workspace; // m2 × m1
      times_triangle(T(1), l(r1, r0), args.ld, m2, x(r0, r0), m1, args.ldx, w, m1, args.gemm, args.stream);
      triangle_times(T(-1), x(r1, r1), m2, args.ldx, lab::Op::none, w, m1, m1, x(r1, r0), args.ldx,
                     args.gemm, args.stream);
    }

    // The largest W of all the joins: usually the top one's, but not always (n = 129:
    // the top joins 128 rows with 1, its left half 64 with 64).
    std::size_t largest_join(int n, int first, int last)
    {
      if (last - first < 2)
        return 0;
      const int mid = middle(first, last);
      const std::size_t m1 = (mid - first) * tile, m2 = std::min(last * tile, n) - mid * tile;
      return std::max({m1 * m2, largest_join(n, first, mid), largest_join(n, mid, last)});
    }
  } // namespace

  template <typename T>
  std::size_t recursive_workspace(int n)
  {
    return largest_join(n, 0, step2::ceil_div(n, tile));
  }

  template <typename T>
  void invert_4_recursive(const InverseArgs<T> &args)
  {
    check_diagonal(args.l, args.n, args.ld, args.info, args.stream);
    set_to_zero(args.x, args.n, args.ldx, args.stream);
    step2::launch_invert_diagonal_tiles(args.l, args.n, args.ld, args.x, args.ldx,
                                        step2::TileLayout::on_diagonal, args.info, args.stream);
    combine(args, 0, step2::ceil_div(args.n, tile));
    erase_if_singular(args.x, args.n, args.ldx, args.info, args.stream);
  }

  template std::size_t recursive_workspace<float>(int);
  template std::size_t recursive_workspace<double>(int);
  template void invert_4_recursive(const InverseArgs<float> &);
  template void invert_4_recursive(const InverseArgs<double> &);
} // namespace step3
