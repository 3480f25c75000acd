// The sparse Cholesky (CHOLMOD) against a dense solve of the same equations, and its
// report of a matrix that is not positive definite. In a build without CHOLMOD every
// test says so and passes without checking anything.
#include "methods/restoration.h"
#include "methods/sparse_cholesky.h"
#include "model/blur_model.h"
#include "model/psf.h"
#include "report/checks.h"
#include "test_support.h"

#include <lab/matrix.h>
#include <lab_catch.h>

#include <string>
#include <vector>

using namespace step5_test;

namespace
{
  bool skipped_without_cholmod()
  {
    if (step5::have_cholmod())
      return false;
    WARN("this build has no CHOLMOD (SuiteSparse): skipped");
    return true;
  }

  // The entries of the lower triangle that are not zero, and the diagonal: what the
  // sparse Cholesky should have given CHOLMOD.
  double lower_nonzeros(const Image &dense)
  {
    double count = 0;
    for (int i = 0; i < dense.rows(); ++i)
      for (int j = 0; j <= i; ++j)
        count += dense(i, j) != 0 || i == j;
    return count;
  }

  std::vector<Psf> test_psfs()
  {
    std::vector<Psf> psfs = shape_test_psfs();
    psfs.push_back(step5::trail_psf(5, 30));
    psfs.push_back(step5::gaussian_psf(1.0, 5));
    return psfs;
  }
} // namespace

// On small non-square images with PSFs of every shape, λ > 0: the solution agrees with
// step-1's dense Cholesky on the dense matrix to far below the accuracy the condition
// number allows (κ ≤ (‖p‖₁² + λ)/λ ≤ 10³ here), it solves the equations to the last
// digits, and CHOLMOD was given exactly the nonzeros of A's lower triangle.
TEST_CASE("the sparse Cholesky solves the normal equations as a dense Cholesky does", "[sparse_cholesky]")
{
  if (skipped_without_cholmod())
    return;
  for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{7, 11}, {16, 13}})
    for (const Psf &psf : test_psfs())
      for (const double lambda : {1e-2, 0.5})
        {
          INFO(rows << " x " << cols << " image, psf " << psf.name << ", lambda " << lambda);
          const step5::NormalStencil a = step5::normal_matrix_stencil(psf, rows, cols, lambda);
          const Image b = step5::blur_transpose(psf, random_image(rows, cols, 12345));
          const step5::SparseCholeskySolution sparse = step5::sparse_cholesky_solve(a, b);
          REQUIRE(sparse.report.failed_pixel == -1);
          REQUIRE(sparse.f.rows() == rows);
          REQUIRE(sparse.f.cols() == cols);

          const Image dense = dense_normal_matrix(a);
          const Image expected = unstacked(cholesky_solve(dense, stacked(b)), rows, cols);
          double largest = 0;
          for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
              largest = lab::nan_max(largest, std::abs(expected(r, c)));
          CHECK(max_difference(sparse.f, expected) <= 1e-10 * largest);

          const Image af = step5::apply(a, sparse.f);
          Image residual(rows, cols);
          for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
              residual(r, c) = b(r, c) - af(r, c);
          CHECK(step5::norm(residual) <= 1e-13 * step5::norm(b));

          const step5::SparseCholeskyReport &report = sparse.report;
          CHECK(report.matrix_nonzeros == lower_nonzeros(dense));
          CHECK(report.factor_nonzeros >= report.matrix_nonzeros);
          CHECK(report.flops > 0);
          CHECK_FALSE(report.ordering.empty());
          CHECK(report.analyse >= 0);
          CHECK(report.factor >= 0);
          CHECK(report.solve >= 0);
        }
}

// A PSF that only shifts the image right by one pixel never sees the left column: with
// λ = 0 those pixels' rows and columns of A are zero (the dense Cholesky's first pivot
// is zero). CHOLMOD must stop and say at which pixel, one of the left column, in
// whatever order it eliminated them.
TEST_CASE("the sparse Cholesky reports a matrix that is not positive definite", "[sparse_cholesky]")
{
  if (skipped_without_cholmod())
    return;
  const Psf shift = psf_of({{1, 0, 0}}, "shift");
  const int rows = 7, cols = 11;
  const step5::NormalStencil a = step5::normal_matrix_stencil(shift, rows, cols, 0.0);
  const Image b = step5::blur_transpose(shift, random_image(rows, cols, 12345));
  const step5::SparseCholeskySolution sparse = step5::sparse_cholesky_solve(a, b);
  CHECK(sparse.f.size() == 0);
  REQUIRE(sparse.report.failed_pixel >= 0);
  CHECK(sparse.report.failed_pixel < rows * cols);
  CHECK(sparse.report.failed_pixel % cols == 0);
}

// Among step-5's methods (the CPU ones only, no GPU needed): the method is there when
// asked for, its backward error is checked like the other direct methods', and a
// failure comes back as the method's failure, with the column, not as an exception.
TEST_CASE("the sparse Cholesky is one of step-5's methods", "[sparse_cholesky]")
{
  if (skipped_without_cholmod())
    return;
  step5::RestoreOptions options;
  options.use_gpu = false;
  options.gauss_seidel = false;
  options.sparse_cholesky = true;
  const auto cholmod_of = [](const std::vector<step5::MethodResult> &results) {
    REQUIRE(results.size() == 1);
    REQUIRE(results[0].name == "cholmod");
    return results[0];
  };

  options.lambda = 1e-3;
  const Psf blur = step5::gaussian_psf(1.2, 5);
  const step5::MethodResult solved = cholmod_of(
    step5::restore_with_every_method<float>(blur, random_image(16, 13, 12345), options, nullptr));
  CHECK(solved.failure.empty());
  CHECK(solved.kind == step5::MethodKind::sparse_cholesky);
  CHECK(solved.equations == step5::Equations::normal);
  CHECK(solved.backward_error <= step5::direct_tolerance(16 * 13, 1.1e-16));
  CHECK(solved.milliseconds == solved.sparse.milliseconds());

  options.lambda = 0;
  const step5::MethodResult failed = cholmod_of(
    step5::restore_with_every_method<float>(psf_of({{1, 0, 0}}, "shift"), random_image(7, 11, 12345), options, nullptr));
  CHECK(contains(failed.failure, "not positive definite (column "));
  CHECK(failed.image.size() == 0);
}
