// GPU tests of step-3's triangular part: every inverse variant against the residual
// bound on sizes that break the tiling (1, 2, tile ± 1 for the tile 64 and the leaf
// 256, primes, about a thousand), float and double, on two kinds of triangles whose
// conditioning is known (Cholesky factors of SPD matrices of condition 1e3 and
// diagonally dominant triangles: a random triangle is exponentially ill-conditioned,
// and a check on one says nothing); singular triangles (a zero on the diagonal first,
// in the middle, last) reported with the right column and an all-zero X; then the
// triangular products, the substitutions and the SPD inverse. Outputs and workspaces
// are poisoned (all NaN) before every run. Exits with 77 (CTest: skipped) without a GPU.
#include "cholesky_blocked_cpu.h"
#include "solve_and_spd_inverse/spd_inverse.h"
#include "solve_and_spd_inverse/substitution.h"
#include "triangular/triangular_cpu.h"
#include "triangular/triangular_inverse.h"
#include "triangular/triangular_products.h"

#include <lab/precision.h>
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

  // Inverts @p l with @p variant on the GPU; returns info and X in @p x.
  template <typename T>
  int invert(const step3::InverseVariant<T> &variant, const lab::Matrix<T> &l, lab::Matrix<T> &x,
             lab::Cublas &cublas)
  {
    const int n = l.rows();
    lab::DeviceBuffer<T> factor(l), inverse(l.size()), workspace(variant.workspace_elements(n));
    lab::DeviceBuffer<int> info(1);
    inverse.poison();
    workspace.poison();
    info.poison();
    variant.invert(step3::inverse_args<T>(factor.data(), n, l.ld(), inverse.data(), info.data(), workspace.data(),
                                          lab::cublas_gemm_exact<T>(cublas)));
    x = lab::Matrix<T>(n, n, l.ld());
    inverse.download(x);
    int status = -1;
    info.copy_to_host(&status, 1);
    return status;
  }

  // The Cholesky factor of a random SPD matrix of condition 1e3, zeros above.
  template <typename T>
  lab::Matrix<T> cholesky_factor(int n, unsigned seed)
  {
    lab::Matrix<T> a = lab::random_spd<T>(n, 1e3, seed);
    REQUIRE(step2::cholesky_blocked_cpu(a) == 0);
    return step3::lower_triangle(a);
  }

  template <typename T>
  bool upper_triangle_is_zero(const lab::Matrix<T> &x)
  {
    for (int i = 0; i < x.rows(); ++i)
      for (int j = i + 1; j < x.cols(); ++j)
        if (x(i, j) != T(0))
          return false;
    return true;
  }

  template <typename T>
  void check_sizes(lab::Cublas &cublas, bool large)
  {
    const std::vector<int> sizes = large ? std::vector<int>{1000, 1025}
                                         : std::vector<int>{1, 2, 3, 17, 63, 64, 65, 127, 128, 129, 191,
                                                            255, 256, 257, 331, 511, 513};
    for (const step3::InverseVariant<T> &variant : step3::inverse_variants<T>())
      for (const int n : sizes)
        for (const bool cholesky : {true, false})
          {
            INFO(variant.name << ", n = " << n << ", " << lab::precision_name<T>() << ", "
                              << (cholesky ? "Cholesky factor" : "diagonally dominant"));
            const lab::Matrix<T> l =
              cholesky ? cholesky_factor<T>(n, 300 + n) : lab::random_lower_triangular<T>(n, 300 + n);
            lab::Matrix<T> x;
            REQUIRE(invert(variant, l, x, cublas) == 0);
            CHECK(lab::inverse_residual(l, x, n) <= lab::tolerance<T>(4, n));
            CHECK(upper_triangle_is_zero(x));
          }
  }

  template <typename T>
  void check_singular(lab::Cublas &cublas)
  {
    const int n = 300;
    for (const step3::InverseVariant<T> &variant : step3::inverse_variants<T>())
      for (const int j : {0, 64, 150, n - 1})
        {
          INFO(variant.name << ", zero at " << j << ", " << lab::precision_name<T>());
          lab::Matrix<T> l = lab::random_lower_triangular<T>(n, 9);
          l(j, j) = 0;
          lab::Matrix<T> x;
          CHECK(invert(variant, l, x, cublas) == j + 1);
          bool all_zero = true;
          for (std::size_t e = 0; e < x.size(); ++e)
            all_zero = all_zero && x.data()[e] == T(0);
          CHECK(all_zero);
        }
  }

  // The products with a triangle against the same products in double on the host.
  template <typename T>
  void check_triangle_products(lab::Cublas &cublas)
  {
    const lab::Gemm<T> gemm = lab::cublas_gemm_exact<T>(cublas);
    for (const int m : {1, 70, 256, 257, 600})
      for (const int p : {1, 37})
        {
          INFO("m = " << m << ", p = " << p << ", " << lab::precision_name<T>());
          const lab::Matrix<T> t = lab::random_lower_triangular<T>(m, m);
          const lab::Matrix<T> left = lab::random_matrix<T>(m, p, 1), right = lab::random_matrix<T>(p, m, 2);
          lab::DeviceBuffer<T> dt(t), dleft(left), dright(right), out(static_cast<std::size_t>(m) * p);
          const auto run = [&](auto enqueue, int rows, int cols, auto entry) {
            out.poison();
            enqueue();
            lab::Matrix<T> c(rows, cols);
            out.download(c);
            lab::Matrix<double> expected(rows, cols);
            for (int i = 0; i < rows; ++i)
              for (int j = 0; j < cols; ++j)
                expected(i, j) = entry(i, j);
            CHECK(lab::relative_error(c, expected) <= lab::tolerance<T>(4, m));
          };
          // T B, T^T B and B T.
          run([&] { step3::triangle_times(T(2), dt.data(), m, m, lab::Op::none, dleft.data(), p, p, out.data(), p, gemm, nullptr); },
              m, p, [&](int i, int j) {
                double s = 0;
                for (int q = 0; q <= i; ++q)
                  s += double(t(i, q)) * left(q, j);
                return 2 * s;
              });
          run([&] { step3::triangle_times(T(1), dt.data(), m, m, lab::Op::transpose, dleft.data(), p, p, out.data(), p, gemm, nullptr); },
              m, p, [&](int i, int j) {
                double s = 0;
                for (int q = i; q < m; ++q)
                  s += double(t(q, i)) * left(q, j);
                return s;
              });
          run([&] { step3::times_triangle(T(-1), dright.data(), m, p, dt.data(), m, m, out.data(), m, gemm, nullptr); },
              p, m, [&](int i, int j) {
                double s = 0;
                for (int q = j; q < m; ++q)
                  s += double(right(i, q)) * t(q, j);
                return -s;
              });
        }
  }

  // Solves op(L) X = B on the GPU by @p method, L given to the solve as @p stored (L
  // itself, or L with NaN where the solve must not read) with @p bandwidth, and checks
  // info and the residual against L.
  template <typename T>
  void check_solve(const lab::Matrix<T> &l, const lab::Matrix<T> &stored, const lab::Matrix<T> &b, lab::Op op,
                   int bandwidth, step3::Substitution method, const lab::Gemm<T> &gemm)
  {
    const int n = l.rows(), nrhs = b.cols();
    lab::DeviceBuffer<T> dl(stored), db(b), workspace(step3::substitution_workspace(n, nrhs));
    lab::DeviceBuffer<int> info(1);
    workspace.poison();
    info.poison();
    step3::solve_lower(dl.data(), n, n, op, db.data(), nrhs, nrhs, workspace.data(), info.data(), gemm, nullptr,
                       bandwidth, method);
    lab::Matrix<T> x(n, nrhs);
    db.download(x);
    int status = -1;
    info.copy_to_host(&status, 1);
    CHECK(status == 0);
    lab::Matrix<T> matrix(n, n); // op(L)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        matrix(i, j) = op == lab::Op::none ? l(i, j) : l(j, i);
    CHECK(lab::solve_residual(matrix, x, b, nrhs) <= lab::tolerance<T>(4, n));
  }

  // The methods that solve for @p nrhs right-hand sides: the blocked products always,
  // the chained kernel for one.
  std::vector<step3::Substitution> methods_for(int nrhs)
  {
    if (nrhs == 1)
      return {step3::Substitution::blocked, step3::Substitution::chained,
              step3::Substitution::chained_without_clusters};
    return {step3::Substitution::blocked};
  }

  const char *method_name(step3::Substitution method)
  {
    switch (method)
      {
      case step3::Substitution::chained:
        return "chained";
      case step3::Substitution::chained_without_clusters:
        return "chained without clusters";
      default:
        return "blocked";
      }
  }

  // A well-conditioned lower triangle with band @p b (b ≥ n: dense): the diagonal in
  // [1, 2], the band's entries in [−1, 1] / (b + 1), so each row's off-diagonal sum
  // stays below its diagonal entry.
  template <typename T>
  lab::Matrix<T> band_triangle(int n, int b, unsigned seed)
  {
    const lab::Matrix<T> r = lab::random_matrix<T>(n, n, seed);
    lab::Matrix<T> l(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        l(i, j) = i == j ? T(1) + std::abs(r(i, j)) : i - j <= b ? r(i, j) / T(b + 1) : T(0);
    return l;
  }

  // L with NaN more than @p depth rows below its diagonal, outside the 64×64 tiles on
  // the diagonal (which both methods invert whole).
  template <typename T>
  lab::Matrix<T> poisoned_below(const lab::Matrix<T> &l, int depth)
  {
    constexpr int tile = step3::substitution_block;
    lab::Matrix<T> poisoned = l;
    for (int i = 0; i < l.rows(); ++i)
      for (int j = 0; j < i - depth; ++j)
        if (i / tile != j / tile)
          poisoned(i, j) = std::numeric_limits<T>::quiet_NaN();
    return poisoned;
  }

  // Forward and back substitution: op(L) X = B for 1 and several right-hand sides:
  // up to 7, and beyond (8, 33, and the program's 256), where the products' shapes
  // change; check_solve looks at every right-hand side. Sizes around the blocks of
  // both methods (64 and 128 rows).
  template <typename T>
  void check_substitution(lab::Cublas &cublas)
  {
    const lab::Gemm<T> gemm = lab::cublas_gemm_exact<T>(cublas);
    for (const int n : {1, 2, 63, 64, 65, 127, 128, 129, 200, 257, 513})
      for (const int nrhs : {1, 7, 8, 33, 256})
        for (const step3::Substitution method : methods_for(nrhs))
          for (const lab::Op op : {lab::Op::none, lab::Op::transpose})
            {
              INFO("n = " << n << ", nrhs = " << nrhs << ", " << method_name(method) << ", "
                          << lab::op_letter(op) << ", " << lab::precision_name<T>());
              const lab::Matrix<T> l = cholesky_factor<T>(n, n);
              check_solve(l, l, lab::random_matrix<T>(n, nrhs, 5), op, -1, method, gemm);
            }
    // The chained kernel's clusters hold 8 block rows of 128, 1024 rows: around one
    // cluster, and three (the last with one row), so that x also travels between
    // clusters, through global memory.
    for (const int n : {1023, 1024, 1025, 2049})
      for (const step3::Substitution method : methods_for(1))
        for (const lab::Op op : {lab::Op::none, lab::Op::transpose})
          {
            INFO("n = " << n << ", " << method_name(method) << ", " << lab::op_letter(op) << ", "
                        << lab::precision_name<T>());
            const lab::Matrix<T> l = band_triangle<T>(n, n, 7 + n);
            check_solve(l, l, lab::random_matrix<T>(n, 1, 5), op, -1, method, gemm);
          }
  }

  // A factor of 300 rows with a zero on the diagonal at @p zero: @p solve, given L, B
  // (@p nrhs columns), the workspace and info on the GPU, must report the zero in info
  // and leave B all zero.
  template <typename T, typename Solve>
  void check_singular_solve(int zero, int nrhs, Solve solve)
  {
    const int n = 300;
    lab::Matrix<T> l = cholesky_factor<T>(n, 1);
    l(zero, zero) = 0;
    lab::DeviceBuffer<T> dl(l), db(lab::random_matrix<T>(n, nrhs, 5)), workspace(step3::substitution_workspace(n, nrhs));
    lab::DeviceBuffer<int> info(1);
    workspace.poison();
    info.poison();
    solve(dl.data(), n, db.data(), workspace.data(), info.data());
    lab::Matrix<T> x(n, nrhs);
    db.download(x);
    int status = -1;
    info.copy_to_host(&status, 1);
    CHECK(status == zero + 1);
    for (std::size_t e = 0; e < x.size(); ++e)
      REQUIRE(x.data()[e] == T(0));
  }

  // A zero on the diagonal: info, and B all zero, for every method and both
  // directions; the zero in the first, a middle and the last block of the chain.
  template <typename T>
  void check_singular_substitution(lab::Cublas &cublas)
  {
    const lab::Gemm<T> gemm = lab::cublas_gemm_exact<T>(cublas);
    for (const int zero : {0, 70, 299})
      for (const int nrhs : {1, 3})
        for (const step3::Substitution method : methods_for(nrhs))
          for (const lab::Op op : {lab::Op::none, lab::Op::transpose})
            {
              INFO("zero at " << zero << ", nrhs = " << nrhs << ", " << method_name(method) << ", "
                              << lab::op_letter(op) << ", " << lab::precision_name<T>());
              check_singular_solve<T>(zero, nrhs, [&](const T *l, int n, T *b, T *workspace, int *info) {
                step3::solve_lower(l, n, n, op, b, nrhs, nrhs, workspace, info, gemm, nullptr, -1, method);
              });
            }
  }

  // Substitution with a band factor, zero more than b rows below its diagonal. The
  // blocked solve reads whole 64-row blocks, so the zeros up to b + 63 rows below the
  // diagonal are read and must be stored; the chained one reads only the band (and,
  // as both do, the 64×64 tiles on the diagonal). The entries further down are NaN on
  // the GPU, so a solve that reads them fails.
  template <typename T>
  void check_band_substitution(lab::Cublas &cublas)
  {
    const lab::Gemm<T> gemm = lab::cublas_gemm_exact<T>(cublas);
    for (const int n : {1, 64, 65, 200, 513, 2049})
      for (const int b : {0, 1, 63, 64, 65, 127, 128, 150, 1100})
        for (const int nrhs : {1, 2})
          for (const step3::Substitution method : methods_for(nrhs))
            for (const lab::Op op : {lab::Op::none, lab::Op::transpose})
              {
                INFO("n = " << n << ", bandwidth " << b << ", nrhs = " << nrhs << ", " << method_name(method)
                            << ", " << lab::op_letter(op) << ", " << lab::precision_name<T>());
                const lab::Matrix<T> l = band_triangle<T>(n, b, 3 + n + b);
                const int read = method == step3::Substitution::blocked ? b + step3::substitution_block - 1 : b;
                check_solve(l, poisoned_below(l, read), lab::random_matrix<T>(n, nrhs, 5), op, b, method, gemm);
              }
  }

  // A = L L^T for a lower triangle L, summed in double and rounded once.
  template <typename T>
  lab::Matrix<T> times_own_transpose(const lab::Matrix<T> &l)
  {
    const int n = l.rows();
    lab::Matrix<T> a(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        {
          double s = 0;
          for (int q = 0; q <= std::min(i, j); ++q)
            s += double(l(i, q)) * l(j, q);
          a(i, j) = T(s);
        }
    return a;
  }

  // A X = B for A = L L^T by solve_with_cholesky_factor, L given as @p stored (L, or L
  // with NaN where the solve must not read) with @p bandwidth; info and the residual
  // against A. The residual's check is also shown to fail: the forward half alone
  // (solve_lower without L^T) is not a solution of A X = B.
  template <typename T>
  void check_cholesky_solve(const lab::Matrix<T> &a, const lab::Matrix<T> &stored, const lab::Matrix<T> &b,
                            int bandwidth, step3::Substitution method, const lab::Gemm<T> &gemm)
  {
    const int n = a.rows(), nrhs = b.cols();
    lab::DeviceBuffer<T> dl(stored), db(b), workspace(step3::substitution_workspace(n, nrhs));
    lab::DeviceBuffer<int> info(1);
    const double tolerance = lab::tolerance<T>(4, n);
    const auto solve = [&](bool both) {
      db.upload(b);
      workspace.poison();
      info.poison();
      if (both)
        step3::solve_with_cholesky_factor(dl.data(), n, n, db.data(), nrhs, nrhs, workspace.data(), info.data(),
                                          gemm, nullptr, bandwidth, method);
      else
        step3::solve_lower(dl.data(), n, n, lab::Op::none, db.data(), nrhs, nrhs, workspace.data(), info.data(),
                           gemm, nullptr, bandwidth, method);
      lab::Matrix<T> x(n, nrhs);
      db.download(x);
      int status = -1;
      info.copy_to_host(&status, 1);
      CHECK(status == 0);
      return lab::solve_residual(a, x, b, nrhs);
    };
    CHECK(solve(true) <= tolerance);
    if (n > 1)
      CHECK_FALSE(solve(false) <= tolerance);
  }

  // Both triangles at once: dense and band factors, around the blocks of both methods
  // and the chained kernel's clusters (1024 rows); a zero on the diagonal gives info
  // and B all zero, as for one triangle.
  template <typename T>
  void check_solve_with_cholesky_factor(lab::Cublas &cublas)
  {
    const lab::Gemm<T> gemm = lab::cublas_gemm_exact<T>(cublas);
    for (const int n : {1, 2, 63, 64, 65, 127, 128, 129, 513, 1025})
      for (const int b : {n, 65})
        {
          const lab::Matrix<T> l = band_triangle<T>(n, b, 13 + n + b);
          const lab::Matrix<T> a = times_own_transpose(l);
          for (const int nrhs : {1, 7})
            for (const step3::Substitution method : methods_for(nrhs))
              {
                INFO("n = " << n << ", bandwidth " << b << ", nrhs = " << nrhs << ", " << method_name(method)
                            << ", " << lab::precision_name<T>());
                const int read = method == step3::Substitution::blocked ? b + step3::substitution_block - 1 : b;
                check_cholesky_solve(a, b < n ? poisoned_below(l, read) : l, lab::random_matrix<T>(n, nrhs, 5),
                                     b < n ? b : -1, method, gemm);
              }
        }
    for (const int zero : {0, 70, 299})
      for (const int nrhs : {1, 3})
        for (const step3::Substitution method : methods_for(nrhs))
          {
            INFO("zero at " << zero << ", nrhs = " << nrhs << ", " << method_name(method) << ", "
                            << lab::precision_name<T>());
            check_singular_solve<T>(zero, nrhs, [&](const T *l, int n, T *b, T *workspace, int *info) {
              step3::solve_with_cholesky_factor(l, n, n, b, nrhs, nrhs, workspace, info, gemm, nullptr, -1, method);
            });
          }
  }

  // A^{-1} = X^T X from the inverse of A's Cholesky factor.
  template <typename T>
  void check_spd_inverse(lab::Cublas &cublas)
  {
    for (const int n : {1, 65, 300, 600})
      {
        INFO("n = " << n << ", " << lab::precision_name<T>());
        const lab::Matrix<T> a = lab::random_spd<T>(n, 1e3, n);
        lab::Matrix<T> l = a;
        REQUIRE(step2::cholesky_blocked_cpu(l) == 0);
        lab::Matrix<T> x;
        REQUIRE(step3::invert_lower_cpu(step3::lower_triangle(l), x) == 0);
        lab::DeviceBuffer<T> dx(x), dc(x.size());
        dc.poison();
        step3::inverse_from_factor_inverse(dx.data(), n, n, dc.data(), n, lab::cublas_gemm_exact<T>(cublas), nullptr);
        lab::Matrix<T> c(n, n);
        dc.download(c);
        CHECK(lab::inverse_residual(a, c, n) <= lab::tolerance<T>(4, n));
      }
  }
} // namespace

TEST_CASE("every triangular inverse meets the residual bound, float", "[gpu][gets_eliminate][gets_divide_rows][blocked_gets_products]")
{
  lab::Cublas cublas;
  check_sizes<float>(cublas, false);
}

TEST_CASE("every triangular inverse meets the residual bound, double", "[gpu][gets_eliminate][gets_divide_rows][blocked_gets_products]")
{
  lab::Cublas cublas;
  check_sizes<double>(cublas, false);
}

TEST_CASE("every triangular inverse meets the residual bound at about a thousand", "[gpu][large]")
{
  lab::Cublas cublas;
  check_sizes<float>(cublas, true);
  check_sizes<double>(cublas, true);
}

TEST_CASE("every triangular inverse reports a zero on the diagonal, X all zero", "[gpu][gets_eliminate][gets_divide_rows][blocked_gets_products]")
{
  lab::Cublas cublas;
  check_singular<float>(cublas);
  check_singular<double>(cublas);
}

TEST_CASE("products with a triangle skip its zeros and agree with the full product", "[gpu]")
{
  lab::Cublas cublas;
  check_triangle_products<float>(cublas);
  check_triangle_products<double>(cublas);
}

TEST_CASE("forward and back substitution for one and several right-hand sides", "[gpu]")
{
  lab::Cublas cublas;
  check_substitution<float>(cublas);
  check_substitution<double>(cublas);
}

TEST_CASE("forward and back substitution report a zero on the diagonal, X all zero", "[gpu]")
{
  lab::Cublas cublas;
  check_singular_substitution<float>(cublas);
  check_singular_substitution<double>(cublas);
}

TEST_CASE("the chained substitution with more blocks than the GPU runs at once", "[gpu][large]")
{
  // 20000 rows are 157 block rows of 128 (20 clusters of 8), and one block of the
  // kernel fills an SM: the blocks that start late must still find what they wait for
  // (the tickets).
  lab::Cublas cublas;
  const int n = 20000;
  const lab::Matrix<float> l = band_triangle<float>(n, n, 11);
  for (const step3::Substitution method :
       {step3::Substitution::chained, step3::Substitution::chained_without_clusters})
    for (const lab::Op op : {lab::Op::none, lab::Op::transpose})
      {
        INFO(method_name(method) << ", " << lab::op_letter(op));
        check_solve(l, l, lab::random_matrix<float>(n, 1, 5), op, -1, method, lab::cublas_gemm_exact<float>(cublas));
      }
}

TEST_CASE("the chained substitution refuses more than one right-hand side", "[gpu]")
{
  lab::Cublas cublas;
  lab::DeviceBuffer<float> l(4), b(4), workspace(step3::substitution_workspace(2, 2));
  lab::DeviceBuffer<int> info(1);
  CHECK_THROWS_WITH(step3::solve_lower(l.data(), 2, 2, lab::Op::none, b.data(), 2, 2, workspace.data(), info.data(),
                                       lab::cublas_gemm_exact<float>(cublas), nullptr, -1,
                                       step3::Substitution::chained),
                    "the chained substitution solves for one right-hand side, not 2");
}

TEST_CASE("substitution with a band factor reads only its band", "[gpu]")
{
  lab::Cublas cublas;
  check_band_substitution<float>(cublas);
  check_band_substitution<double>(cublas);
}

TEST_CASE("both triangles of a Cholesky factor at once solve A X = B", "[gpu]")
{
  lab::Cublas cublas;
  check_solve_with_cholesky_factor<float>(cublas);
  check_solve_with_cholesky_factor<double>(cublas);
}

TEST_CASE("the SPD inverse X^T X from the factor's inverse", "[gpu]")
{
  lab::Cublas cublas;
  check_spd_inverse<float>(cublas);
  check_spd_inverse<double>(cublas);
}
