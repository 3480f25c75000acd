// GPU tests of the vendor wrappers step-2 times against: cuSOLVER's potrf and potrs as
// step2::CusolverCholesky calls them (LOWER on the course's row-major buffer, the
// factor turned into L by rows outside the timing) and cuSOLVER's mixed-precision
// solver (step2::CusolverMixedPrecision). A wrapper that asks for the wrong triangle,
// forgets the conversion or reads its input in the wrong layout gives the wrong factor
// or solution here, on sizes 1, 2, around the vendor's blocks and odd ones. Outputs are
// poisoned (NaN) before every call. Exits with 77 (CTest: skipped) without a GPU.
#include "cusolver_cholesky.h"
#include "cusolver_mixed_precision.h"
#include "spd_except_at.h"

#include <lab/compare.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace
{
  const std::vector<int> sizes = {1, 2, 31, 33, 100, 257, 513};

  template <typename T>
  void check_cholesky_wrapper()
  {
    const double eps = std::numeric_limits<T>::epsilon();
    for (const int n : sizes)
      {
        CAPTURE(sizeof(T), n);
        const lab::Matrix<double> a_double = lab::random_spd<double>(n, 100, 11 + n);
        const lab::Matrix<T> a = lab::convert<T>(a_double);
        lab::Matrix<double> l_cpu = a_double;
        step1::cholesky_in_place(l_cpu.data(), n, l_cpu.ld());

        step2::CusolverCholesky<T> cusolver(n, n);
        lab::DeviceBuffer<T> matrix(a);
        lab::DeviceBuffer<int> info(1);
        info.poison();
        cusolver.factorize(matrix.data(), info.data());
        cusolver.to_course_layout(matrix.data());
        lab::Matrix<T> l(n, n);
        matrix.download(l);
        int status = -1;
        info.copy_to_host(&status, 1);
        REQUIRE(status == 0);
        // The factor by rows, as the course reads it: the same L as the CPU's (a
        // condition number of 100 keeps L's error near ε), and a small residual.
        CHECK(lab::lower_triangle_difference(l, l_cpu) <= 50 * eps);
        CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<T>(4, n));
        // After the conversion the buffer holds L both ways: by columns as well.
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < i; ++j)
            REQUIRE(l(j, i) == l(i, j));

        // potrs with that factor, read from either triangle (after the conversion it
        // lies in both): A x = b for three right-hand sides stored by columns (which,
        // for cuSOLVER, is how they are stored: each a contiguous vector).
        using Factor = typename step2::CusolverCholesky<T>::Factor;
        const int nrhs = 3;
        const lab::Matrix<T> b = lab::random_matrix<T>(nrhs, n, 5); // row k: right-hand side k
        for (const Factor where : {Factor::as_potrf_left_it, Factor::by_rows})
          {
            CAPTURE(int(where));
            lab::DeviceBuffer<T> x(b);
            info.poison();
            cusolver.solve(matrix.data(), where, x.data(), nrhs, n, info.data());
            lab::Matrix<T> solutions(nrhs, n);
            x.download(solutions);
            info.copy_to_host(&status, 1);
            REQUIRE(status == 0);
            CHECK(lab::solve_residual(a, lab::transposed(solutions), lab::transposed(b), nrhs) <=
                  lab::tolerance<T>(4, n));
          }

        // And straight after potrf, without the conversion: the factor as it left it.
        lab::DeviceBuffer<T> raw(a), x(b);
        cusolver.factorize(raw.data(), info.data());
        cusolver.solve(raw.data(), Factor::as_potrf_left_it, x.data(), nrhs, n, info.data());
        lab::Matrix<T> solutions(nrhs, n);
        x.download(solutions);
        info.copy_to_host(&status, 1);
        REQUIRE(status == 0);
        CHECK(lab::solve_residual(a, lab::transposed(solutions), lab::transposed(b), nrhs) <= lab::tolerance<T>(4, n));
      }
  }

  // A matrix that stops being positive definite at column c gets LAPACK's info = c + 1
  // from the LOWER call, as from the CPU: also where cuSOLVER 13.0 alone misreports it
  // (the last column of a block of 64: n = 64, 128, 256 with c = n − 1; n = 126, 127,
  // 255 with c = 63 or 127), which the wrapper corrects from the factor's diagonal.
  template <typename T>
  void check_not_positive_definite()
  {
    std::vector<std::pair<int, int>> cases;
    for (const int n : {3, 64, 126, 127, 128, 255, 256, 257})
      for (const int c : {0, 63, 127, n / 2, n - 1})
        if (c < n)
          cases.emplace_back(n, c);
    for (const auto &[n, c] : cases)
        {
          CAPTURE(sizeof(T), n, c);
          const lab::Matrix<T> a = spd_except_at<T>(n, c);
          step2::CusolverCholesky<T> cusolver(n, n);
          lab::DeviceBuffer<T> matrix(a);
          lab::DeviceBuffer<int> info(1);
          info.poison();
          cusolver.factorize(matrix.data(), info.data());
          int status = -1;
          info.copy_to_host(&status, 1);
          CHECK(status == c + 1);
        }
  }
} // namespace

TEST_CASE("cuSOLVER's potrf (LOWER) gives the CPU's factor by rows after to_course_layout, and potrs solves with it")
{
  check_cholesky_wrapper<float>();
  check_cholesky_wrapper<double>();
}

TEST_CASE("cuSOLVER's potrf (LOWER) reports LAPACK's info on a matrix that is not positive definite")
{
  check_not_positive_definite<float>();
  check_not_positive_definite<double>();
}

TEST_CASE("step2::mirror_upper_to_lower copies the upper triangle by rows into the lower one")
{
  for (const int n : {1, 2, 33, 100})
    {
      CAPTURE(n);
      const lab::Matrix<float> m = lab::random_matrix<float>(n, n, 3);
      lab::DeviceBuffer<float> device(m);
      step2::mirror_upper_to_lower(device.data(), n, n, nullptr);
      lab::Matrix<float> mirrored(n, n);
      device.download(mirrored);
      int wrong = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          wrong += mirrored(i, j) != (j >= i ? m(i, j) : m(j, i));
      CHECK(wrong == 0);
    }
}

namespace
{
  // cuSOLVER's IRS solver with the refinement method given, on A x = b in T: it must
  // converge without falling back (a non-negative iteration count), to what LAPACK's
  // test guarantees in the course's measure (step2::irs_error_bound).
  template <typename T>
  void check_irs(int n, cusolverIRSRefinement_t refinement)
  {
    const lab::Matrix<T> a = lab::random_spd<T>(n, 1000, 21 + n);
    const lab::Matrix<T> b = lab::random_matrix<T>(n, 1, 22);
    lab::DeviceBuffer<T> matrix(a), rhs(b), x(n);
    lab::DeviceBuffer<int> info(1);
    x.poison();
    info.poison();
    step2::CusolverMixedPrecision<T> irs(n, refinement);
    CHECK(irs.solve(matrix.data(), rhs.data(), x.data(), info.data()) >= 0);
    int status = -1;
    info.copy_to_host(&status, 1);
    CHECK(status == 0);
    if (status != 0)
      return;
    lab::Matrix<T> solution(n, 1);
    x.download(solution);
    CHECK(lab::solve_residual(a, solution, b, 1) <= step2::irs_error_bound<T>(n));
  }
} // namespace

TEST_CASE("cuSOLVER's mixed-precision solver (TF32 LU, refined) reaches FP32 and FP64 accuracy")
{
  for (const int n : {1, 2, 33, 257, 1000})
    for (const step2::IrsRefinement refinement : step2::irs_refinements)
      {
        CAPTURE(n, refinement.name);
        check_irs<float>(n, refinement.method);
        check_irs<double>(n, refinement.method);
      }
}
