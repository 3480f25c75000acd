#include "cholesky_cpu.h"
#include "cholesky_loop.h"

#include <stdexcept>

namespace step1
{
  template <typename T>
  int cholesky_cpu(lab::Matrix<T> &a)
  {
    if (a.rows() != a.cols())
      throw std::invalid_argument("Cholesky needs a square matrix");
    return cholesky_in_place(a.data(), a.rows(), a.ld());
  }

  template int cholesky_cpu(lab::Matrix<float> &);
  template int cholesky_cpu(lab::Matrix<double> &);
} // namespace step1
