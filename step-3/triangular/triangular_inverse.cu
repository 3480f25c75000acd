// The list of variants (see triangular_inverse.h).
#include "triangular/triangular_inverse.h"

#include "triangular/1_gets_2011.cuh"
#include "triangular/2_gets_coalesced.cuh"
#include "triangular/3_blocked_gets.cuh"
#include "triangular/4_recursive.cuh"

namespace step3
{
  namespace
  {
    std::size_t no_workspace(int) { return 0; }
  } // namespace

  // GETS makes one launch per row and walks memory badly: the full sweep gives it the
  // sizes up to 8192, where it already takes seconds.
  constexpr int gets_largest_n = 8192;
  constexpr int any_n = 1 << 30;

  template <typename T>
  const std::vector<InverseVariant<T>> &inverse_variants()
  {
    static const std::vector<InverseVariant<T>> list = {
      {"1_gets_2011", "the thesis' GETS: 2 launches per row, threads down the columns", false,
       gets_largest_n, no_workspace, invert_1_gets_2011<T>},
      {"2_gets_coalesced", "GETS, threads along the rows, 1 launch per row", false, gets_largest_n,
       no_workspace, invert_2_gets_coalesced<T>},
      {"3_blocked_gets", "64-row blocks: tile inverses, then one product per block row", true, any_n,
       blocked_gets_workspace<T>, invert_3_blocked_gets<T>},
      {"4_recursive", "halves inverted recursively, joined by triangular products", true, any_n,
       recursive_workspace<T>, invert_4_recursive<T>},
    };
    return list;
  }

  template <typename T>
  const InverseVariant<T> *find_inverse_variant(const std::string &name)
  {
    for (const InverseVariant<T> &variant : inverse_variants<T>())
      if (variant.name == name || variant.name.substr(0, variant.name.find('_')) == name)
        return &variant;
    return nullptr;
  }

  template const std::vector<InverseVariant<float>> &inverse_variants<float>();
  template const std::vector<InverseVariant<double>> &inverse_variants<double>();
  template const InverseVariant<float> *find_inverse_variant<float>(const std::string &);
  template const InverseVariant<double> *find_inverse_variant<double>(const std::string &);
} // namespace step3
