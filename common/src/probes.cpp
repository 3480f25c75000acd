#include <lab/probes.h>

#include <lab/compare.h>
#include <lab/fresh_inputs.h>
#include <lab/random.h>

#include <cmath>
#include <vector>

namespace lab
{
  template <typename T>
  double cholesky_probe(const Matrix<T> &a, const Matrix<T> &factor)
  {
    const int n = a.rows();
    Random random(unpredictable_seed());
    std::vector<double> x(n);
    for (double &xi : x)
      xi = random.uniform(1, 2);

    // v = Lᵀx and |Lᵀ|x, walking L by rows: row i adds l_ij x_i to v_j. A x and
    // |A|x likewise from A's lower triangle, each entry below the diagonal counted
    // twice, as a_ij and as a_ji.
    std::vector<double> v(n, 0), v_abs(n, 0), ax(n, 0), ax_abs(n, 0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        {
          const double l = factor(i, j), aij = a(i, j);
          v[j] += l * x[i];
          v_abs[j] += std::abs(l) * x[i];
          ax[i] += aij * x[j];
          ax_abs[i] += std::abs(aij) * x[j];
          if (j < i)
            {
              ax[j] += aij * x[i];
              ax_abs[j] += std::abs(aij) * x[i];
            }
        }
    // Row i of L(Lᵀx) and of |L|(|Lᵀ|x), and its error.
    double worst = 0;
    for (int i = 0; i < n; ++i)
      {
        double w = 0, w_abs = 0;
        for (int j = 0; j <= i; ++j)
          {
            const double l = factor(i, j);
            w += l * v[j];
            w_abs += std::abs(l) * v_abs[j];
          }
        worst = nan_max(worst, std::abs(ax[i] - w) / (ax_abs[i] + w_abs));
      }
    return worst;
  }

  template double cholesky_probe(const Matrix<float> &, const Matrix<float> &);
  template double cholesky_probe(const Matrix<double> &, const Matrix<double> &);
} // namespace lab
