// The list of variants (see gauss_jordan.h).
#include "gauss_jordan/gauss_jordan.h"

#include "gauss_jordan/1_thesis_swap_on_zero.cuh"
#include "gauss_jordan/2_partial_pivoting.cuh"
#include "gauss_jordan/3_blocked.cuh"

namespace step3
{
  template <typename T>
  const std::vector<GaussJordanVariant<T>> &gauss_jordan_variants()
  {
    static const std::vector<GaussJordanVariant<T>> list = {
      {"1_thesis_swap_on_zero", "the thesis' 3 kernels per column, a swap only on an exactly zero pivot",
       Pivoting::on_exact_zero, false, row_operations_workspace, invert_1_thesis_swap_on_zero<T>},
      {"2_partial_pivoting", "the same kernels, the largest pivot of the column", Pivoting::partial, false,
       row_operations_workspace, invert_2_partial_pivoting<T>},
      {"3_blocked", "in place, 128-column panels, the rest updated by products (lab::Gemm)", Pivoting::partial,
       true, blocked_workspace, invert_3_blocked<T>},
    };
    return list;
  }

  template <typename T>
  const GaussJordanVariant<T> *find_gauss_jordan_variant(const std::string &name)
  {
    for (const GaussJordanVariant<T> &variant : gauss_jordan_variants<T>())
      if (variant.name == name || variant.name.substr(0, variant.name.find('_')) == name)
        return &variant;
    return nullptr;
  }

  template const std::vector<GaussJordanVariant<float>> &gauss_jordan_variants<float>();
  template const std::vector<GaussJordanVariant<double>> &gauss_jordan_variants<double>();
  template const GaussJordanVariant<float> *find_gauss_jordan_variant<float>(const std::string &);
  template const GaussJordanVariant<double> *find_gauss_jordan_variant<double>(const std::string &);
} // namespace step3
