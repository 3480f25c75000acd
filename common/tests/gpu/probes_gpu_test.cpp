// Tests of lab/probes.h on the GPU and of lab::scale_on_gpu: the probes pass exact
// results and FAIL wrong ones (one entry, a NaN, a stale result scaled by 2) at odd
// sizes, and a scaling by a power of two and back returns the very same numbers.
#include <lab/device_buffer.h>
#include <lab/fresh_inputs.h>
#include <lab/probes.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cmath>
#include <limits>

namespace
{
  template <typename T>
  double cholesky_probe_on_gpu(const lab::Matrix<T> &a, const lab::Matrix<T> &factor)
  {
    const lab::DeviceBuffer<T> a_device(a), factor_device(factor);
    return lab::cholesky_probe_on_gpu(a_device.data(), factor_device.data(), a.rows(), a.ld());
  }

  template <typename T>
  double inverse_probe_on_gpu(const lab::Matrix<T> &l, const lab::Matrix<T> &x)
  {
    const lab::DeviceBuffer<T> l_device(l), x_device(x);
    return lab::inverse_probe_on_gpu(l_device.data(), x_device.data(), l.rows(), l.ld());
  }

  // L with 1 on the diagonal and 1/2 below it, whose inverse has the entries
  // (−1/2)^(i−j), exact in binary; what lies above the diagonals is garbage the probes
  // must not read.
  template <typename T>
  lab::Matrix<T> bidiagonal(int n)
  {
    lab::Matrix<T> l(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        l(i, j) = i == j ? T(1) : i == j + 1 ? T(0.5) : j > i ? T(7) : T(0);
    return l;
  }
  template <typename T>
  lab::Matrix<T> bidiagonal_inverse(int n)
  {
    lab::Matrix<T> x(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        x(i, j) = j <= i ? T(std::ldexp((i - j) % 2 ? -1.0 : 1.0, j - i)) : T(-3);
    return x;
  }
} // namespace

TEMPLATE_TEST_CASE("probes_gpu: exact results pass and wrong ones FAIL, at sizes 1, 2, 257 and 1000", "", float,
                   double)
{
  for (const int n : {1, 2, 257, 1000})
    {
      CAPTURE(n);
      const double tolerance = lab::probe_tolerance<TestType>(n);
      const lab::Matrix<TestType> l = lab_test::well_scaled_factor<TestType>(n, n), a = lab_test::times_transpose(l);
      CHECK(cholesky_probe_on_gpu(a, l) <= tolerance);
      lab::Matrix<TestType> wrong = l;
      wrong(n - 1, n / 3) += 1;
      CHECK_FALSE(cholesky_probe_on_gpu(a, wrong) <= tolerance);
      wrong(n - 1, n / 3) = std::numeric_limits<TestType>::quiet_NaN();
      CHECK_FALSE(cholesky_probe_on_gpu(a, wrong) <= tolerance);
      // What the host computes, up to rounding.
      const double host = lab::cholesky_probe(a, l), device = cholesky_probe_on_gpu(a, l);
      CHECK(std::abs(host - device) <= tolerance);

      const lab::Matrix<TestType> bi = bidiagonal<TestType>(n), inverse = bidiagonal_inverse<TestType>(n);
      CHECK(inverse_probe_on_gpu(bi, inverse) <= tolerance);
      lab::Matrix<TestType> stale = inverse, off = inverse;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
          stale(i, j) *= 2;
      CHECK_FALSE(inverse_probe_on_gpu(bi, stale) <= tolerance);
      off(n - 1, n - 1) = TestType(1.01);
      CHECK_FALSE(inverse_probe_on_gpu(bi, off) <= tolerance);
    }
}

TEMPLATE_TEST_CASE("fresh_inputs_gpu: a power of two and back gives the same numbers, NaN stays NaN", "", float, double)
{
  lab::Matrix<TestType> m = lab::random_matrix<TestType>(37, 41, 5);
  m(3, 4) = std::numeric_limits<TestType>::quiet_NaN();
  lab::DeviceBuffer<TestType> device(m);
  lab::Matrix<TestType> scaled(37, 41), back(37, 41);
  lab::scale_on_gpu(device.data(), device.count(), 3);
  device.download(scaled);
  CHECK(scaled(0, 0) == 8 * m(0, 0));
  CHECK(std::isnan(scaled(3, 4)));
  lab::scale_on_gpu(device.data(), device.count(), -3);
  device.download(back);
  // The same numbers (a NaN may come back as another NaN: it has no value to keep).
  int changed = 0;
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.cols(); ++j)
      changed += std::isnan(m(i, j)) ? !std::isnan(back(i, j)) : back(i, j) != m(i, j);
  CHECK(changed == 0);
}
