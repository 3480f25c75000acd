#include <lab/finite.h>

#include <lab/program.h>

#include <cmath>

namespace lab
{
  template <typename T>
  void require_finite(const Matrix<T> &m, const std::string &what)
  {
    for (int i = 0; i < m.rows(); ++i)
      for (int j = 0; j < m.cols(); ++j)
        if (!std::isfinite(m(i, j)))
          throw bad_input(what + "(" + std::to_string(i) + ", " + std::to_string(j) + ") is " +
                          (std::isnan(m(i, j)) ? "nan" : "infinite") +
                          ": the input must be finite");
  }

  template void require_finite(const Matrix<float> &, const std::string &);
  template void require_finite(const Matrix<double> &, const std::string &);
} // namespace lab
