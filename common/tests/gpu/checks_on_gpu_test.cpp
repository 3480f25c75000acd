// Tests of lab/checks_on_gpu.h: the full checks on the GPU agree with the same checks
// computed on the host, on small sizes, and they FAIL on the wrong answers they exist
// to catch (planted: one wrong entry, an unwritten tile, a zeroed tile, a zero factor,
// a NaN), wherever in the matrix the fault sits.
#include <lab/checks_on_gpu.h>
#include <lab/compare.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace
{
  // A product on the GPU: A, B and the input C uploaded, the result computed by cuBLAS
  // in T's own precision, and the check prepared before the product overwrites C.
  template <typename T>
  struct Product
  {
    lab::GemmShape shape;
    T alpha, beta;
    lab::Matrix<T> a, b, c;
    lab::DeviceBuffer<T> a_device, b_device, c_device;
    std::optional<lab::GemmCheckOnGpu<T>> check;

    Product(const lab::GemmShape &s, T alpha_, T beta_, unsigned seed)
      : shape(s), alpha(alpha_), beta(beta_),
        a(lab::random_matrix<T>(s.a_rows(), s.a_cols(), 3 * seed)),
        b(lab::random_matrix<T>(s.b_rows(), s.b_cols(), 3 * seed + 1)),
        c(lab::random_matrix<T>(s.m, s.n, 3 * seed + 2)), a_device(a), b_device(b), c_device(c)
    {
      check = lab::GemmCheckOnGpu<T>::prepare(args());
      REQUIRE(check.has_value());
      lab::Cublas cublas;
      lab::cublas_gemm_exact<T>(cublas)(args(), nullptr);
      LAB_CHECK(cudaDeviceSynchronize());
    }

    lab::GemmArgs<T> args()
    {
      return lab::gemm_args<T>(shape, alpha, a_device.data(), a.ld(), b_device.data(), b.ld(), beta,
                               c_device.data(), c.ld());
    }

    lab::Matrix<T> result() const
    {
      lab::Matrix<T> r(shape.m, shape.n);
      c_device.download(r);
      return r;
    }

    // The check of @p r (on the host), uploaded.
    double error_of(const lab::Matrix<T> &r) const
    {
      const lab::DeviceBuffer<T> uploaded(r);
      return check->error(uploaded.data(), r.ld());
    }

    // The same error computed on the host in double, entry by entry: the definition.
    double host_error(const lab::Matrix<T> &r) const
    {
      return lab_test::host_product_error(shape, alpha, beta, a, b, c, r);
    }
  };

  template <typename T>
  double tolerance(int k)
  {
    return (k + 2) * double(std::numeric_limits<T>::epsilon());
  }

  const std::vector<lab::GemmShape> shapes = {{1, 1, 1},
                                              {17, 33, 5},
                                              {64, 64, 64},
                                              {100, 37, 250, lab::Op::transpose, lab::Op::none},
                                              {45, 70, 19, lab::Op::none, lab::Op::transpose}};
} // namespace

TEST_CASE("checks_on_gpu: a product's error on the GPU is the host's, float and double", "[gpu]")
{
  for (const lab::GemmShape &s : shapes)
    {
      INFO(s.m << " x " << s.n << " x " << s.k << " " << lab::op_letter(s.op_a) << lab::op_letter(s.op_b));
      Product<float> pf(s, 1.5f, -0.5f, 7);
      const double gpu = pf.check->error(pf.c_device.data(), pf.c.ld());
      const double host = pf.host_error(pf.result());
      CHECK(gpu <= tolerance<float>(s.k));
      // The two references differ by their own rounding in double, some 10^-14 of an
      // entry's bracket at most: far below what a float result's error can be.
      CHECK(std::abs(gpu - host) <= 1e-4 * host + 1e-12);
      // In double the error is rounding against rounding: both must be within bound.
      Product<double> pd(s, 1.5, -0.5, 8);
      CHECK(pd.check->error(pd.c_device.data(), pd.c.ld()) <= tolerance<double>(s.k));
      CHECK(pd.host_error(pd.result()) <= tolerance<double>(s.k));
    }
}

TEST_CASE("checks_on_gpu: the product's own scaling, alpha = 1 and beta = 0 (C not read)", "[gpu]")
{
  const lab::GemmShape s{40, 50, 60};
  Product<float> p(s, 1.0f, 0.0f, 9);
  CHECK(p.check->error(p.c_device.data(), p.c.ld()) <= tolerance<float>(s.k));
  // With β = 0 the input C was ignored, so a C scaled in anyway is wrong.
  lab::Matrix<float> with_c = p.result();
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j)
      with_c(i, j) += 0.5f * p.c(i, j);
  CHECK(p.error_of(with_c) > 100 * tolerance<float>(s.k));
}

// The faults the check on every entry exists for: at 300 × 200, one wrong entry
// anywhere (the last bit of a single entry's worth of error is enough), a 16 × 16 tile
// never written (poisoned: NaN) and a tile of zeros, at corners, edges and inside.
TEST_CASE("planted: one wrong entry, an unwritten tile and a zeroed tile FAIL the product check on the GPU", "[gpu]")
{
  const lab::GemmShape s{300, 200, 64};
  Product<float> p(s, 1.0f, 0.0f, 11);
  const lab::Matrix<float> good = p.result();
  REQUIRE(p.error_of(good) <= tolerance<float>(s.k));
  for (const int i : {0, 1, 150, 299})
    for (const int j : {0, 77, 199})
      {
        INFO("entry (" << i << ", " << j << ")");
        lab::Matrix<float> wrong = good;
        wrong(i, j) += 1e-3f * (1 + std::abs(wrong(i, j)));
        CHECK(p.error_of(wrong) > tolerance<float>(s.k));
      }
  for (const int i0 : {0, 144, 284})
    for (const int j0 : {0, 96, 184})
      {
        INFO("tile at (" << i0 << ", " << j0 << ")");
        lab::Matrix<float> unwritten = good, zeroed = good;
        for (int i = i0; i < i0 + 16; ++i)
          for (int j = j0; j < j0 + 16; ++j)
            {
              unwritten(i, j) = std::numeric_limits<float>::quiet_NaN();
              zeroed(i, j) = 0;
            }
        CHECK(std::isnan(p.error_of(unwritten)));
        CHECK(p.error_of(zeroed) > tolerance<float>(s.k));
      }
}

namespace
{
  // An SPD matrix with a known factor: L random lower triangular with a diagonal in
  // [2, 3], A = L Lᵀ in double, then both rounded to T. The factor is then exact up to
  // T's rounding, a residual of a few ε.
  template <typename T>
  void known_factor(int n, unsigned seed, lab::Matrix<T> &a, lab::Matrix<T> &l)
  {
    const lab::Matrix<double> r = lab::random_matrix<double>(n, n, seed);
    lab::Matrix<double> ld(n, n), ad(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        ld(i, j) = i == j ? 2.5 + 0.5 * r(i, i) : r(i, j) / std::sqrt(double(n));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        {
          double sum = 0;
          for (int k = 0; k <= j; ++k)
            sum += ld(i, k) * ld(j, k);
          ad(i, j) = ad(j, i) = sum;
        }
    a = lab::convert<T>(ad);
    l = lab::convert<T>(ld);
  }
} // namespace

TEST_CASE("checks_on_gpu: the Cholesky residual on the GPU is the host's", "[gpu]")
{
  for (const int n : {1, 2, 17, 100, 257})
    {
      INFO("n = " << n);
      lab::Matrix<float> af, lf;
      known_factor(n, 5 + n, af, lf);
      const std::optional<double> gpu = lab::cholesky_residual_on_gpu(af, lf);
      REQUIRE(gpu);
      const double host = lab::cholesky_residual(af, lf);
      CHECK(*gpu <= lab::tolerance<float>(4, n));
      CHECK(std::abs(*gpu - host) <= 1e-4 * host + 1e-12);
      lab::Matrix<double> ad, ld;
      known_factor(n, 6 + n, ad, ld);
      CHECK(*lab::cholesky_residual_on_gpu(ad, ld) <= lab::tolerance<double>(4, n));
    }
}

TEST_CASE("checks_on_gpu: the Cholesky residual reads only the lower triangles", "[gpu]")
{
  const int n = 70;
  lab::Matrix<double> a, l;
  known_factor(n, 3, a, l);
  const double clean = *lab::cholesky_residual_on_gpu(a, l);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      a(i, j) = l(i, j) = std::numeric_limits<double>::quiet_NaN();
  CHECK(*lab::cholesky_residual_on_gpu(a, l) == clean);
}

// The faults: a factor that is all zeros (residual 1), one wrong entry anywhere in the
// lower triangle, a NaN (a never-written entry), at every size of the test.
TEST_CASE("planted: a zero factor, one wrong entry and a NaN FAIL the Cholesky residual on the GPU", "[gpu]")
{
  for (const int n : {1, 2, 17, 257, 700})
    {
      INFO("n = " << n);
      lab::Matrix<float> a, l;
      known_factor(n, 20 + n, a, l);
      const double tolerance = lab::tolerance<float>(4, n);
      REQUIRE(*lab::cholesky_residual_on_gpu(a, l) <= tolerance);
      const lab::Matrix<float> zero(n, n);
      CHECK(*lab::cholesky_residual_on_gpu(a, zero) > tolerance);
      for (const int i : {0, n / 2, n - 1})
        {
          const int j = i / 3;
          lab::Matrix<float> wrong = l, poisoned = l;
          wrong(i, j) += 1.0f;
          poisoned(i, j) = std::numeric_limits<float>::quiet_NaN();
          CHECK(*lab::cholesky_residual_on_gpu(a, wrong) > tolerance);
          CHECK(std::isnan(*lab::cholesky_residual_on_gpu(a, poisoned)));
        }
    }
}
