#include "7_panel_by_halves.cuh"

#include "4_right_looking_gemm.cuh"
#include "5_look_ahead.cuh"
#include "recursive_diagonal_block.cuh"
#include "tiles.cuh"

#include <algorithm>

namespace step2
{
  namespace
  {
    // Variant 4's panel with the diagonal block and its inverse by halves.
    template <typename T, BaseBlock base>
    void panel_by_halves(const CholeskyArgs<T> &args, int p, cudaStream_t s)
    {
      const int nb = std::min(args.n, args.panel_width), w = std::min(nb, args.n - p);
      T *const scratch = args.workspace + static_cast<long>(nb) * nb;
      const PanelInverse<T> x = panel_inverse(args, p);
      LAB_CHECK(cudaMemsetAsync(x.x, 0, sizeof(T) * w * x.ld, s));
      factorize_and_invert_by_halves(args.a + static_cast<long>(p) * args.ld + p, w, args.ld, x.x, x.ld, scratch,
                                     args.info, args.first_column + p, base, args.gemm, s);
      solve_panel_below(args, p, s);
    }
  } // namespace

  // About n/16 (a multiple of 64), from panel_width up to twice it. Wide panels pay at
  // large n (fewer links in the chain, longer products), narrow ones at small n, where
  // the chain is all there is: measured on an H200 in float (with base blocks of 256
  // rows, before they became 128), n = 8192 takes 11.2 ms with panels of 512 and
  // 12.7 ms with 1024; n = 16384, 50.4 and 49.2 ms.
  int panel_by_halves_width(int n, int panel_width)
  {
    const int about_a_sixteenth = ceil_div(n, 16 * 64) * 64;
    return std::clamp(about_a_sixteenth, panel_width, 2 * panel_width);
  }

  template <typename T>
  std::size_t panel_by_halves_workspace(int n, int panel_width)
  {
    return right_looking_workspace<T>(n, panel_by_halves_width(n, panel_width));
  }

  template <typename T>
  void factorize_by_halves(const CholeskyArgs<T> &args, BaseBlock base, RestOfUpdate rest)
  {
    CholeskyArgs<T> wide = args;
    wide.panel_width = panel_by_halves_width(args.n, args.panel_width);
    const PanelFactorization<T> panel = base == BaseBlock::in_registers
                                          ? panel_by_halves<T, BaseBlock::in_registers>
                                          : panel_by_halves<T, BaseBlock::one_launch_then_tile_inverses>;
    factorize_looking_ahead(wide, panel,
                            rest == RestOfUpdate::block_columns ? std::min(wide.n, wide.panel_width)
                                                                : one_lower_triangle_product);
  }

  template <typename T>
  void factorize_7_panel_by_halves(const CholeskyArgs<T> &args)
  {
    factorize_by_halves(args, BaseBlock::one_launch_then_tile_inverses);
  }

  template std::size_t panel_by_halves_workspace<float>(int, int);
  template std::size_t panel_by_halves_workspace<double>(int, int);
  template void factorize_by_halves(const CholeskyArgs<float> &, BaseBlock, RestOfUpdate);
  template void factorize_by_halves(const CholeskyArgs<double> &, BaseBlock, RestOfUpdate);
  template void factorize_7_panel_by_halves(const CholeskyArgs<float> &);
  template void factorize_7_panel_by_halves(const CholeskyArgs<double> &);
} // namespace step2
