// GPU tests of the vendor routines step-3 times against, as step3::VendorTriangular
// calls them: cuSOLVER's trtri and potri and cuBLAS's trsm(L, I), each given L the way
// step-3 gives it (cuSOLVER's factor after step-2's to_course_layout: L by rows in the
// lower triangle and by columns in the upper) and read back the way step-3 reads it.
// A wrapper that asks for the wrong triangle, side or transposition computes the
// inverse of another matrix (Lᵀ, or A's other triangle) and fails here. Sizes 1, 2,
// around the vendor's blocks and odd ones; outputs poisoned before every call. Exits
// with 77 (CTest: skipped) without a GPU.
#include "triangular/cusolver_triangular.h"
#include "triangular/triangular_cpu.h"

#include <cusolver_cholesky.h> // step-2: the factor, as step-3 makes it

#include <lab/compare.h>
#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/residuals.h>
#include <lab/test_matrices.h>
#include <lab_catch.h>

#include <cmath>
#include <limits>
#include <vector>

namespace
{
  const std::vector<int> sizes = {1, 2, 31, 33, 100, 257};

  template <typename T>
  void check_vendor_triangular()
  {
    const double eps = std::numeric_limits<T>::epsilon();
    lab::Cublas cublas;
    for (const int n : sizes)
      {
        CAPTURE(sizeof(T), n);
        const lab::Matrix<T> a = lab::random_spd<T>(n, 100, 31 + n);
        // L as step-3 holds it on the GPU, and in double on the host.
        step2::CusolverCholesky<T> cholesky(n, n);
        lab::DeviceBuffer<T> l(a);
        lab::DeviceBuffer<int> info(1);
        cholesky.factorize(l.data(), info.data());
        cholesky.to_course_layout(l.data());
        lab::Matrix<T> l_host(n, n);
        l.download(l_host);
        const lab::Matrix<T> lower = step3::lower_triangle(l_host);
        lab::Matrix<T> l_inverse_cpu;
        REQUIRE(step3::invert_lower_cpu(lower, l_inverse_cpu) == 0);
        const lab::Matrix<double> reference = lab::convert<double>(l_inverse_cpu);

        step3::VendorTriangular<T> vendor(n, n, cublas);
        lab::DeviceBuffer<T> x(a.size());
        lab::Matrix<T> result(n, n);
        int status = -1;

        // trtri: in place on a copy of L; L⁻¹ in the lower triangle by rows.
        x.copy_from_device(l);
        info.poison();
        vendor.trtri(x.data(), info.data(), nullptr);
        x.download(result);
        info.copy_to_host(&status, 1);
        CHECK(status == 0);
        CHECK(lab::lower_triangle_difference(result, reference) <= 100 * eps);

        // trsm(L, I): X = L⁻¹, all of it (zeros above the diagonal).
        lab::Matrix<T> identity(n, n);
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            identity(i, j) = i == j;
        x.upload(identity);
        vendor.trsm(l.data(), x.data(), nullptr);
        x.download(result);
        CHECK(lab::lower_triangle_difference(result, reference) <= 100 * eps);
        CHECK(lab::inverse_residual(lower, result, n) <= lab::tolerance<T>(4, n));

        // potri: A⁻¹ in place of the factor, its lower triangle by rows.
        x.copy_from_device(l);
        info.poison();
        vendor.potri(x.data(), info.data(), nullptr);
        x.download(result);
        info.copy_to_host(&status, 1);
        CHECK(status == 0);
        lab::Matrix<T> inverse(n, n);
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            inverse(i, j) = j <= i ? result(i, j) : result(j, i);
        CHECK(lab::inverse_residual(a, inverse, n) <= lab::tolerance<T>(4, n));
      }
  }
} // namespace

TEST_CASE("cuSOLVER's trtri and potri and cuBLAS's trsm, as step-3 calls them, invert L and A")
{
  check_vendor_triangular<float>();
  check_vendor_triangular<double>();
}
