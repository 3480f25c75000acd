// The list of variants (see cholesky_variants.h).
#include "cholesky_variants.h"

#include "variants/1_four_kernels_2011.cuh"
#include "variants/2_one_launch_update.cuh"
#include "variants/3_register_blocked_update.cuh"
#include "variants/4_right_looking_gemm.cuh"
#include "variants/5_look_ahead.cuh"
#include "variants/7_panel_by_halves.cuh"
#include "variants/8_base_block_in_registers.cuh"
#include "variants/9_lower_triangle_update.cuh"
#include "variants/10_recursive.cuh"

#include <algorithm>

namespace step2
{
  namespace
  {
    std::size_t no_workspace(int, int) { return 0; }
    // Variants 1 to 5 take panels as wide as they are told (1 to 3 have none: tiles).
    int panel_as_given(int n, int panel_width) { return std::min(n, panel_width); }
  } // namespace

  template <typename T>
  const std::vector<Variant<T>> &variants()
  {
    static const std::vector<Variant<T>> list = {
      {"1_four_kernels_2011", "the 2011 design: 4 kernels, 16x16 tiles, serial lo_update",
       false, no_workspace, factorize_1_four_kernels_2011<T>, panel_as_given},
      {"2_one_launch_update", "every trailing tile in one 2-D launch", false, no_workspace,
       factorize_2_one_launch_update<T>, panel_as_given},
      {"3_register_blocked_update", "64x64 tiles, 4x4 per thread, lower tiles only", false,
       no_workspace, factorize_3_register_blocked_update<T>, panel_as_given},
      {"4_right_looking_gemm", "nb-wide panels: inverse and products through lab::Gemm",
       true, right_looking_workspace<T>, factorize_4_right_looking_gemm<T>, panel_as_given},
      {"5_look_ahead", "variant 4 with the next panel on a second stream, 2nb-wide update columns",
       true, right_looking_workspace<T>, factorize_5_look_ahead<T>, panel_as_given},
      {"7_panel_by_halves", "variant 5 with the diagonal block by halves and panels up to twice as wide",
       true, panel_by_halves_workspace<T>, factorize_7_panel_by_halves<T>, panel_by_halves_width},
      {"8_base_block_in_registers", "variant 7 with each 128-row base block factorised and inverted in registers",
       true, panel_by_halves_workspace<T>, factorize_8_base_block_in_registers<T>, panel_by_halves_width},
      {"9_lower_triangle_update", "variant 8 with the rest of the trailing update as one lower-triangle product",
       true, panel_by_halves_workspace<T>, factorize_9_lower_triangle_update<T>, panel_by_halves_width},
      {"10_recursive", "by halves: variant 9 on parts of 16 panels, the solves and updates between them by halves",
       true, recursive_workspace<T>, factorize_10_recursive<T>, panel_by_halves_width},
    };
    return list;
  }

  template <typename T>
  const Variant<T> *find_variant(const std::string &name)
  {
    for (const Variant<T> &variant : variants<T>())
      if (is_named(variant.name, name))
        return &variant;
    return nullptr;
  }

  template const std::vector<Variant<float>> &variants<float>();
  template const std::vector<Variant<double>> &variants<double>();
  template const Variant<float> *find_variant<float>(const std::string &);
  template const Variant<double> *find_variant<double>(const std::string &);
} // namespace step2
