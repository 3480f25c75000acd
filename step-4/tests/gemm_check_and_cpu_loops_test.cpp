// Tests of the CPU side of step-4: the check of a product in double (gemm_check.h)
// and the timed CPU loops (gemm_cpu_loops.h). They run on every machine.
#include "gemm_check.h"
#include "gemm_cpu_loops.h"
#include "kernels/11_autotuned.cuh"
#include "sweep/measurement.h"

#include <lab/checks.h>
#include <lab/compare.h>
#include <lab/lapack.h>
#include <lab/matrix.h>
#include <lab_catch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>

using step4::GemmProblem;
using step4::GemmShape;
using step4::Op;

namespace
{
  using Multiply = void (*)(const lab::Matrix<float> &, const lab::Matrix<float> &,
                            lab::Matrix<float> &);

  struct Variant
  {
    const char *name;
    Multiply multiply;
  };

  const Variant variants[] = {{"naive", step4::multiply_naive},
                              {"cache tiled", step4::multiply_cache_tiled},
                              {"OpenMP rows", step4::multiply_openmp_rows},
                              {"OpenMP tiles", step4::multiply_openmp_tiles}};

  // m, n, k: 1, 2, the tile of 64 and its neighbours, sizes that are multiples of
  // nothing, a single column and a single row, and several tiles with ragged edges.
  const int shapes[][3] = {{1, 1, 1},    {2, 2, 2},   {63, 63, 63},
                           {64, 64, 64}, {65, 65, 65}, {17, 33, 65},
                           {100, 1, 7},  {1, 100, 3}, {129, 65, 257}};

  const double nan_double = std::numeric_limits<double>::quiet_NaN();
  const float nan_float = std::numeric_limits<float>::quiet_NaN();

  GemmProblem<float> product_problem(int m, int n, int k, unsigned seed)
  {
    return step4::random_problem<float>(GemmShape{m, n, k}, 1, 0, seed);
  }

  // A second look that does not go through gemm_error: the entries of A and B lie in
  // [-1, 1], so every Σ_p |A_ip| |B_pj| is at most k, and a correct product is within
  // k times the tolerance of the reference, entry by entry.
  double max_difference(const lab::Matrix<float> &c, const lab::Matrix<double> &reference)
  {
    double worst = 0;
    for (int i = 0; i < c.rows(); ++i)
      for (int j = 0; j < c.cols(); ++j)
        worst = lab::nan_max(worst, std::abs(c(i, j) - reference(i, j)));
    return worst;
  }

  // The double reference rounded to T: the best answer there is in precision T.
  template <typename T>
  lab::Matrix<T> rounded_reference(const GemmProblem<T> &p)
  {
    return lab::convert<T>(step4::gemm_in_double(p));
  }

  template <typename T>
  lab::Matrix<T> transpose(const lab::Matrix<T> &x)
  {
    lab::Matrix<T> result(x.cols(), x.rows());
    for (int r = 0; r < x.rows(); ++r)
      for (int c = 0; c < x.cols(); ++c)
        result(c, r) = x(r, c);
    return result;
  }

  // The same product with A and/or B stored transposed: op(A) op(B) is unchanged.
  template <typename T>
  GemmProblem<T> stored_transposed(const GemmProblem<T> &p, Op op_a, Op op_b)
  {
    GemmProblem<T> q = p;
    q.shape.op_a = op_a;
    q.shape.op_b = op_b;
    if (op_a == Op::transpose)
      q.a = transpose(p.a);
    if (op_b == Op::transpose)
      q.b = transpose(p.b);
    return q;
  }

  // What TF32 does to a float: only the top 10 of its 23 mantissa bits are kept.
  lab::Matrix<float> cut_to_tf32(const lab::Matrix<float> &x)
  {
    lab::Matrix<float> result = x;
    for (std::size_t i = 0; i < result.size(); ++i)
      {
        std::uint32_t bits;
        std::memcpy(&bits, &result.data()[i], sizeof bits);
        bits &= ~std::uint32_t((1u << 13) - 1);
        std::memcpy(&result.data()[i], &bits, sizeof bits);
      }
    return result;
  }
} // namespace

TEST_CASE("CPU products agree with the double reference", "[cpu][cache_friendly_order]")
{
  for (const Variant &variant : variants)
    for (const auto &shape : shapes)
      {
        const int m = shape[0], n = shape[1], k = shape[2];
        INFO(variant.name << ": m = " << m << ", n = " << n << ", k = " << k);
        const GemmProblem<float> p = product_problem(m, n, k, 7 + m + n + k);
        const lab::Matrix<double> reference = step4::gemm_in_double(p);
        // The output starts with the wrong shape and NaN: it must be replaced.
        lab::Matrix<float> c(3, 2);
        c(0, 0) = nan_float;
        variant.multiply(p.a, p.b, c);
        REQUIRE(c.rows() == m);
        REQUIRE(c.cols() == n);
        CHECK(max_difference(c, reference) <= step4::gemm_tolerance<float>(k) * k);
        CHECK(step4::gemm_error(p, c) <= step4::gemm_tolerance<float>(k));
      }
}

TEST_CASE("The BLAS product agrees with the double reference", "[cpu]")
{
  for (const auto &shape : shapes)
    {
      const int m = shape[0], n = shape[1], k = shape[2];
      INFO("m = " << m << ", n = " << n << ", k = " << k);
      const GemmProblem<float> p = product_problem(m, n, k, 11 + m);
      lab::Matrix<float> c;
      if (!lab::blas_multiply(p.a, p.b, c))
        {
          CHECK_FALSE(lab::have_lapack());
          continue;
        }
      REQUIRE(c.rows() == m);
      REQUIRE(c.cols() == n);
      CHECK(step4::gemm_error(p, c) <= step4::gemm_tolerance<float>(k));
    }
}

TEST_CASE("CPU products read padded rows and may overwrite a factor", "[cpu]")
{
  const GemmProblem<float> p = product_problem(70, 67, 66, 3);
  // A and B inside wider arrays, the extra numbers NaN: any read of them shows.
  lab::Matrix<float> a(70, 66, 71), b(66, 67, 69);
  std::fill(a.data(), a.data() + a.size(), nan_float);
  std::fill(b.data(), b.data() + b.size(), nan_float);
  for (int i = 0; i < 70; ++i)
    for (int j = 0; j < 66; ++j)
      a(i, j) = p.a(i, j);
  for (int i = 0; i < 66; ++i)
    for (int j = 0; j < 67; ++j)
      b(i, j) = p.b(i, j);
  for (const Variant &variant : variants)
    {
      INFO(variant.name);
      lab::Matrix<float> c;
      variant.multiply(a, b, c);
      CHECK(step4::gemm_error(p, c) <= step4::gemm_tolerance<float>(66));
      lab::Matrix<float> in_place = a;
      variant.multiply(in_place, b, in_place);
      CHECK(step4::gemm_error(p, in_place) <= step4::gemm_tolerance<float>(66));
    }
}

TEST_CASE("CPU products with an empty inner dimension give zeros", "[cpu]")
{
  const lab::Matrix<float> a(5, 0), b(0, 3);
  for (const Variant &variant : variants)
    {
      INFO(variant.name);
      lab::Matrix<float> c;
      variant.multiply(a, b, c);
      REQUIRE(c.rows() == 5);
      REQUIRE(c.cols() == 3);
      for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 3; ++j)
          CHECK(c(i, j) == 0);
    }
}

TEST_CASE("CPU products refuse factors that do not fit", "[cpu]")
{
  const lab::Matrix<float> a(4, 5), b(6, 3);
  lab::Matrix<float> c;
  for (const Variant &variant : variants)
    {
      INFO(variant.name);
      CHECK_THROWS_AS(variant.multiply(a, b, c), std::invalid_argument);
    }
  CHECK_THROWS_AS(lab::blas_multiply(a, b, c), std::invalid_argument);
}

TEST_CASE("The naive product meets the tolerance at k = 1000", "[cpu]")
{
  // The float sum of 1000 products really does round (the error is not 0), and stays
  // within (k + 2)ε all the same.
  const GemmProblem<float> p = product_problem(40, 50, 1000, 5);
  lab::Matrix<float> c;
  step4::multiply_naive(p.a, p.b, c);
  const double error = step4::gemm_error(p, c);
  CAPTURE(error, step4::gemm_tolerance<float>(1000));
  CHECK(error > 0);
  CHECK(error <= step4::gemm_tolerance<float>(1000));
}

TEST_CASE("gemm_error of the rounded reference is at most epsilon", "[cpu]")
{
  // Full check and sampled check (forced by a full-check limit of 0), with β ≠ 0 so
  // that C counts, in both precisions.
  const int sizes[][3] = {{17, 33, 65}, {700, 600, 50}};
  for (const auto &size : sizes)
    for (const double limit : {step4::default_full_check_limit, 0.0})
      {
        const GemmShape shape{size[0], size[1], size[2]};
        INFO("m = " << shape.m << ", n = " << shape.n << ", k = " << shape.k << ", limit " << limit);
        const GemmProblem<float> pf = step4::random_problem<float>(shape, 1.5f, -0.5f, 1);
        const GemmProblem<double> pd = step4::random_problem<double>(shape, 1.5, -0.5, 1);
        CHECK(step4::gemm_error(pf, rounded_reference(pf), limit) <=
              std::numeric_limits<float>::epsilon());
        CHECK(step4::gemm_error(pd, rounded_reference(pd), limit) <=
              std::numeric_limits<double>::epsilon());
      }
}

// The fault: at 700 × 600 the old check looked at 48 rows and 48 columns and missed
// most single wrong entries. A product of this size is now checked on every entry, so
// one wrong entry anywhere FAILs it.
TEST_CASE("planted: one wrong entry anywhere in a 700 x 600 product FAILs the check", "[cpu]")
{
  const GemmProblem<float> p = product_problem(700, 600, 50, 2);
  REQUIRE(step4::gemm_check_coverage(p.shape) == "every entry");
  lab::Matrix<float> c = rounded_reference(p);
  REQUIRE(step4::gemm_error(p, c) <= step4::gemm_tolerance<float>(50));
  std::mt19937 engine(7);
  std::vector<std::pair<int, int>> wrong = {{0, 0}, {0, 599}, {699, 0}, {699, 599}, {250, 321}};
  while (wrong.size() < 24)
    wrong.emplace_back(int(engine() % 700), int(engine() % 600));
  for (const auto &[i, j] : wrong)
    {
      INFO("wrong entry (" << i << ", " << j << ")");
      const float right = c(i, j);
      c(i, j) += 0.01f;
      CHECK(step4::gemm_error(p, c) > step4::gemm_tolerance<float>(50));
      c(i, j) = right;
    }
}

// The verdict every product of the program gets (sweep/measurement.h's ConsoleLines:
// gemm_error at most the tolerance, recorded in lab::Checks), fed a product with one
// entry never written (NaN, as the program poisons C) and one with an entry ten
// tolerances off. Both must FAIL: also where lab::Checks would let NaN through, or the
// tolerance were loosened tenfold. The wrong entry is ten times the tolerance
// gemm_check.h states, (k + 2) ε, spelled out here: made from the program's
// gemm_tolerance, it would move with a loosened one.
TEST_CASE("planted: a product with an entry never written (NaN) or ten tolerances off FAILs its line's check", "[cpu]")
{
  const GemmProblem<float> p = product_problem(70, 60, 50, 2);
  lab::Checks checks;
  const step4::ConsoleLines lines{checks, "float 70 x 60 x 50", p.shape, step4::gemm_tolerance<float>(50)};
  lab::Matrix<float> c = rounded_reference(p);
  lines.print("right", {1, step4::gemm_error(p, c)});
  // Entry (3, 4) off by ten tolerances of its bracket Σ_p |A_3p| |B_p4| (α = 1, β = 0).
  double bracket = 0;
  for (int q = 0; q < 50; ++q)
    bracket += std::abs(double(p.a(3, q)) * p.b(q, 4));
  c(3, 4) += float(10 * (50 + 2) * std::numeric_limits<float>::epsilon() * bracket);
  lines.print("ten tolerances off", {1, step4::gemm_error(p, c)});
  c(3, 4) = nan_float;
  lines.print("never written", {1, step4::gemm_error(p, c)});
  CHECK(checks.passed() == 1);
  CHECK(checks.failed() == 2);
}

// The fault: at 1000 × 999 the old sample of 48 rows and columns missed one in five
// zeroed 16 × 16 tiles. Where the host must sample (forced here by a full-check limit
// of 0), it takes one row and one column in every 16, so a tile of C, unwritten (NaN,
// as the program poisons C) or written with zeros, FAILs the check wherever it lies.
// The tiles tried: one in every tile row and one in every tile column (126 of the
// 63 × 63; all of them take a minute on a small machine).
TEST_CASE("planted: an unwritten or zeroed 16 x 16 tile in any tile row or column FAILs the sampled check at 1000 x 999", "[cpu]")
{
  const GemmProblem<float> p = product_problem(1000, 999, 4, 3);
  REQUIRE(step4::gemm_check_coverage(p.shape, 0) != "every entry");
  lab::Matrix<float> c = rounded_reference(p);
  REQUIRE(step4::gemm_error(p, c, 0) <= step4::gemm_tolerance<float>(4));
  const lab::Matrix<float> good = c;
  std::vector<std::pair<int, int>> tiles;
  for (int band = 0; band < 63; ++band)
    {
      tiles.emplace_back(band, (7 * band + 3) % 63);
      tiles.emplace_back((11 * band + 5) % 63, band);
    }
  int missed_zero = 0, missed_nan = 0;
  for (const auto &[tile_row, tile_column] : tiles)
    {
      const int i0 = 16 * tile_row, j0 = 16 * tile_column;
      const int i1 = std::min(i0 + 16, 1000), j1 = std::min(j0 + 16, 999);
      const auto fill = [&](float value) {
        for (int i = i0; i < i1; ++i)
          for (int j = j0; j < j1; ++j)
            c(i, j) = value;
      };
      fill(0);
      missed_zero += step4::gemm_error(p, c, 0) <= step4::gemm_tolerance<float>(4);
      fill(nan_float);
      missed_nan += !std::isnan(step4::gemm_error(p, c, 0));
      for (int i = i0; i < i1; ++i)
        for (int j = j0; j < j1; ++j)
          c(i, j) = good(i, j);
    }
  CHECK(missed_zero == 0);
  CHECK(missed_nan == 0);
}

TEST_CASE("gemm_error: a wrong entry in a sampled row or column is found", "[cpu]")
{
  // The first and last rows and columns are always among the sampled ones.
  const GemmProblem<float> p = product_problem(700, 600, 50, 2);
  const lab::Matrix<float> good = rounded_reference(p);
  const int wrong[][2] = {{0, 321}, {699, 5}, {250, 599}, {123, 0}};
  for (const auto &at : wrong)
    {
      INFO("wrong entry (" << at[0] << ", " << at[1] << ")");
      lab::Matrix<float> c = good;
      c(at[0], at[1]) += 0.01f;
      CHECK(step4::gemm_error(p, c, 0) > 100 * step4::gemm_tolerance<float>(50));
    }
}

TEST_CASE("gemm_error is NaN when a checked entry is NaN", "[cpu]")
{
  SECTION("full and sampled")
  {
    const GemmProblem<float> p = product_problem(700, 600, 20, 4);
    lab::Matrix<float> c = rounded_reference(p);
    c(0, 5) = nan_float;
    CHECK(std::isnan(step4::gemm_error(p, c)));
    CHECK(std::isnan(step4::gemm_error(p, c, 0)));
  }
  SECTION("full, in a double product")
  {
    const GemmProblem<double> p =
      step4::random_problem<double>(GemmShape{31, 47, 9}, 1, 0, 4);
    lab::Matrix<double> c = rounded_reference(p);
    c(30, 46) = nan_double;
    CHECK(std::isnan(step4::gemm_error(p, c)));
  }
  SECTION("an infinite entry gives an infinite error")
  {
    const GemmProblem<float> p = product_problem(20, 20, 20, 4);
    lab::Matrix<float> c = rounded_reference(p);
    c(3, 4) = std::numeric_limits<float>::infinity();
    CHECK(std::isinf(step4::gemm_error(p, c)));
  }
}

TEST_CASE("gemm_error reads C only when beta is not zero", "[cpu]")
{
  for (const int m : {30, 700})
    {
      INFO("m = " << m);
      GemmProblem<float> p = step4::random_problem<float>(GemmShape{m, 600, 40}, 2, 0, 6);
      const lab::Matrix<float> c = rounded_reference(p);
      std::fill(p.c.data(), p.c.data() + p.c.size(), nan_float);
      CHECK(step4::gemm_error(p, c) <= std::numeric_limits<float>::epsilon());
      p.c = lab::Matrix<float>();
      CHECK(step4::gemm_error(p, c) <= std::numeric_limits<float>::epsilon());
    }
  // With β ≠ 0 a result that forgot β C is wrong.
  const GemmProblem<float> with_c =
    step4::random_problem<float>(GemmShape{40, 30, 20}, 1, 1, 6);
  lab::Matrix<float> forgot_c;
  step4::multiply_naive(with_c.a, with_c.b, forgot_c);
  CHECK(step4::gemm_error(with_c, forgot_c) > 1e-3);
}

TEST_CASE("gemm_error honours the transposes", "[cpu]")
{
  const int sizes[][3] = {{23, 41, 37}, {700, 600, 45}};
  const Op ops[] = {Op::none, Op::transpose};
  for (const auto &size : sizes)
    {
      const GemmProblem<float> p = product_problem(size[0], size[1], size[2], 8);
      lab::Matrix<float> c;
      step4::multiply_openmp_tiles(p.a, p.b, c);
      const double error = step4::gemm_error(p, c);
      REQUIRE(error <= step4::gemm_tolerance<float>(size[2]));
      for (const Op op_a : ops)
        for (const Op op_b : ops)
          {
            INFO("m = " << size[0] << ", n = " << size[1] << ", k = " << size[2]
                        << ", op(A) = " << step4::op_letter(op_a)
                        << ", op(B) = " << step4::op_letter(op_b));
            const GemmProblem<float> q = stored_transposed(p, op_a, op_b);
            // The same sums in the same order: the same numbers exactly.
            CHECK(step4::gemm_error(q, c) == error);
            const lab::Matrix<double> r = step4::gemm_in_double(p);
            const lab::Matrix<double> s = step4::gemm_in_double(q);
            CHECK(std::equal(r.data(), r.data() + r.size(), s.data()));
          }
    }
  // A transpose that is asked for but not done is found: here A and B are square, so
  // the problem with op = T is well formed, but its product is a different one.
  const GemmProblem<float> p = product_problem(50, 50, 50, 9);
  lab::Matrix<float> c;
  step4::multiply_naive(p.a, p.b, c);
  for (const Op op_a : ops)
    for (const Op op_b : ops)
      {
        if (op_a == Op::none && op_b == Op::none)
          continue;
        INFO("op(A) = " << step4::op_letter(op_a)
                        << ", op(B) = " << step4::op_letter(op_b));
        GemmProblem<float> q = p;
        q.shape.op_a = op_a;
        q.shape.op_b = op_b;
        CHECK(step4::gemm_error(q, c) > 1e-3);
      }
}

TEST_CASE("gemm_error where the exact answer is zero", "[cpu]")
{
  // A zero row of A and β = 0: the bound of that row is 0, so its entries must be
  // exactly 0.
  GemmProblem<float> p = product_problem(10, 12, 8, 10);
  for (int j = 0; j < 8; ++j)
    p.a(0, j) = 0;
  lab::Matrix<float> c = rounded_reference(p);
  CHECK(c(0, 3) == 0);
  CHECK(step4::gemm_error(p, c) <= std::numeric_limits<float>::epsilon());
  c(0, 3) = 1e-30f;
  CHECK(std::isinf(step4::gemm_error(p, c)));
}

TEST_CASE("gemm_error refuses a result of the wrong shape", "[cpu]")
{
  const GemmProblem<float> p = product_problem(10, 12, 8, 10);
  CHECK_THROWS_AS(step4::gemm_error(p, lab::Matrix<float>(12, 10)),
                  std::invalid_argument);
}

TEST_CASE("The tolerances: float, double and TF32", "[cpu]")
{
  CHECK(step4::gemm_tolerance<float>(100) == 102 * std::ldexp(1.0, -23));
  CHECK(step4::gemm_tolerance<double>(100) == 102 * std::ldexp(1.0, -52));
  CHECK(step4::tf32_tolerance(100) == std::ldexp(2.0, -10) + 102 * std::ldexp(1.0, -23));

  // A product of inputs cut to TF32 is outside the float tolerance and inside the TF32
  // one: what a tensor-core kernel will be checked with.
  const int k = 300;
  const GemmProblem<float> p = product_problem(64, 64, k, 12);
  lab::Matrix<float> c;
  step4::multiply_naive(cut_to_tf32(p.a), cut_to_tf32(p.b), c);
  const double error = step4::gemm_error(p, c);
  CAPTURE(error);
  CHECK(error > step4::gemm_tolerance<float>(k));
  CHECK(error <= step4::tf32_tolerance(k));
}

// The fault: the tuner kept the fastest candidate whatever its product was. The choice
// now goes to the fastest that passed its check; none passing leaves kernel 10.
TEST_CASE("planted: the tuner never chooses a candidate that failed its check, however fast", "[cpu]")
{
  const std::vector<step4::TuningResult> results = {{"right", 100, 1.0, 1e-8, true},
                                                    {"fast, wrong", 900, 9.0, 0.5, false},
                                                    {"right, faster", 200, 2.0, 2e-8, true},
                                                    {"fastest, never wrote C", 5000, 50.0, nan_double, false}};
  CHECK(step4::fastest_checked(results) == 2);
  CHECK(step4::fastest_checked({results[1], results[3]}) == -1);
  CHECK(step4::fastest_checked({}) == -1);
}

// The fault: the tuner ranked its candidates by their own medians, each timed at its
// own moment, so a candidate that happened to run while the clock was high won. The
// rank is by the speed relative to kernel 10 timed alternately with it: here the
// candidate with the higher GFLOP/s (timed at a higher clock) is the slower one per
// cycle, and must lose.
TEST_CASE("planted: the tuner ranks by the speed relative to kernel 10, not by GFLOP/s", "[cpu]")
{
  const std::vector<step4::TuningResult> results = {{"kernel 10's sizes", 40000, 1.0, 1e-8, true},
                                                    {"high clock", 44000, 0.97, 1e-8, true},
                                                    {"low clock, faster", 42000, 1.02, 1e-8, true}};
  CHECK(step4::fastest_checked(results) == 2);
}

TEST_CASE("gemm_check_coverage: every entry up to the limit, then one row and column in every 16", "[cpu]")
{
  CHECK(step4::gemm_check_coverage({1024, 1024, 1024}) == "every entry");
  CHECK(step4::gemm_check_coverage({1024, 1024, 1025}) ==
        "one row and one column in every 16 (every 16x16 tile seen)");
  CHECK(step4::gemm_check_coverage({10, 10, 10}, 0) != "every entry");
}
