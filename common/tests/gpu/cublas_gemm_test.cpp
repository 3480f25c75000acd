// GPU tests of lab/cublas_gemm.h: cuBLAS's products, through the lab::Gemm interface,
// against a product computed in double on the host.
#include <lab/compare.h>
#include <lab/cublas_gemm.h>
#include <lab/cuda_check.h>
#include <lab/device_buffer.h>
#include <lab/test_matrices.h>
#include <lab/vendor_math.h>
#include <lab_catch.h>
#include <lower_triangle_product.h>

#include "test_support.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <tuple>

namespace
{
  // One product through @p gemm with C poisoned (β = 0) or given (β ≠ 0); returns the
  // worst relative error.
  template <typename T>
  double run(const lab::Gemm<T> &gemm, const lab::GemmShape &s, T alpha, T beta)
  {
    const lab::Matrix<T> a = lab::random_matrix<T>(s.a_rows(), s.a_cols(), 1);
    const lab::Matrix<T> b = lab::random_matrix<T>(s.b_rows(), s.b_cols(), 2);
    const lab::Matrix<T> c_in = lab::random_matrix<T>(s.m, s.n, 3);
    lab::DeviceBuffer<T> a_device(a), b_device(b), c_device(c_in);
    if (beta == T(0))
      c_device.poison();
    lab::GemmArgs<T> g{s, alpha, beta, a_device.data(), a.ld(), b_device.data(), b.ld(),
                       c_device.data(), c_in.ld()};
    cudaStream_t stream = nullptr;
    LAB_CHECK(cudaStreamCreate(&stream));
    gemm(g, stream);
    LAB_CHECK(cudaStreamSynchronize(stream));
    LAB_CHECK(cudaStreamDestroy(stream));
    lab::Matrix<T> c_out(s.m, s.n);
    c_device.download(c_out);
    return lab_test::host_product_error(s, alpha, beta, a, b, c_in, c_out);
  }

  // cuBLAS's three products and the bounds of their rounding.
  struct CublasProducts
  {
    lab::Cublas cublas;
    const lab::Gemm<float> fp32 = lab::cublas_gemm(cublas, lab::CublasMath::fp32);
    const lab::Gemm<float> tf32 = lab::cublas_gemm(cublas, lab::CublasMath::tf32);
    const lab::Gemm<double> fp64 = lab::cublas_gemm(cublas);
    static constexpr double eps_float = std::numeric_limits<float>::epsilon();
    static constexpr double eps_double = std::numeric_limits<double>::epsilon();
  };
} // namespace

TEST_CASE("cublas_gemm: FP32, TF32 and FP64 through lab::Gemm, every transpose", "[gpu]")
{
  const CublasProducts p;
  const auto &[fp32, tf32, fp64] = std::tie(p.fp32, p.tf32, p.fp64);
  const double eps_float = p.eps_float, eps_double = p.eps_double;
  for (const lab::Op op_a : {lab::Op::none, lab::Op::transpose})
    for (const lab::Op op_b : {lab::Op::none, lab::Op::transpose})
      for (const lab::GemmShape shape : {lab::GemmShape{1, 1, 1}, lab::GemmShape{17, 33, 65},
                                         lab::GemmShape{130, 3, 257}})
        {
          lab::GemmShape s = shape;
          s.op_a = op_a;
          s.op_b = op_b;
          INFO(s.m << "x" << s.n << "x" << s.k << " " << lab::op_letter(op_a)
                   << lab::op_letter(op_b));
          const double bound_float = (s.k + 2) * eps_float;
          CHECK(run(fp32, s, 1.0f, 0.0f) <= bound_float);
          CHECK(run(fp32, s, -1.5f, 0.5f) <= bound_float);
          // TF32 rounds the inputs to 10 mantissa bits: 2^-10 relative per input.
          CHECK(run(tf32, s, 1.0f, 0.0f) <= bound_float + 2.0 / 1024);
          CHECK(run(fp64, s, 1.0, 0.0) <= (s.k + 2) * eps_double);
          CHECK(run(fp64, s, -1.5, 0.5) <= (s.k + 2) * eps_double);
        }
}

TEST_CASE("cublas_gemm: an empty C does nothing; k = 0 scales C by beta", "[gpu]")
{
  lab::Cublas cublas;
  const lab::Gemm<float> fp32 = lab::cublas_gemm(cublas, lab::CublasMath::fp32);
  lab::DeviceBuffer<float> dummy(16);
  fp32(lab::GemmArgs<float>{{0, 4, 4}, 1, 0, dummy.data(), 4, dummy.data(), 4, dummy.data(), 4},
       nullptr);
  fp32(lab::GemmArgs<float>{{4, 0, 4}, 1, 0, dummy.data(), 4, dummy.data(), 4, dummy.data(), 4},
       nullptr);
  LAB_CHECK(cudaDeviceSynchronize());

  const lab::Matrix<float> c_in = lab::random_matrix<float>(3, 4, 5);
  lab::DeviceBuffer<float> c(c_in), operand(4);
  fp32(lab::GemmArgs<float>{{3, 4, 0}, 2, 0.5f, operand.data(), 1, operand.data(), 4,
                            c.data(), 4},
       nullptr);
  lab::Matrix<float> c_out(3, 4);
  c.download(c_out);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      CHECK(c_out(i, j) == 0.5f * c_in(i, j));
}

// A lower-triangle product: one batch over the full 256 × 256 tiles, then the strip and
// the corner that are left (sizes below, at and above one tile and one tile ± 1, and a
// size with a partial tile), every transpose, C poisoned or given. Right on and below
// the diagonal; nothing changed at or beyond the overhang, nor in C's padding.
TEST_CASE("cublas_gemm: a lower triangle only, FP32, TF32 and FP64", "[gpu]")
{
  const CublasProducts p;
  const auto &[fp32, tf32, fp64] = std::tie(p.fp32, p.tf32, p.fp64);
  const double eps_float = p.eps_float, eps_double = p.eps_double;
  for (const lab::Op op_a : {lab::Op::none, lab::Op::transpose})
    for (const lab::Op op_b : {lab::Op::none, lab::Op::transpose})
      for (const int m : {1, 2, 255, 256, 257, 600})
        for (const int k : {1, 70})
          {
            INFO(m << "x" << m << "x" << k << " " << lab::op_letter(op_a) << lab::op_letter(op_b));
            const double bound_float = (k + 2) * eps_float;
            for (const auto &r : {lab_test::lower_triangle_product(fp32, m, k, op_a, op_b, -1.0f, 1.0f),
                                  lab_test::lower_triangle_product(fp32, m, k, op_a, op_b, 1.5f, 0.0f)})
              {
                CHECK(r.worst_error <= bound_float);
                CHECK(r.changed_too_far == 0);
              }
            const auto t = lab_test::lower_triangle_product(tf32, m, k, op_a, op_b, -1.0f, 1.0f);
            CHECK(t.worst_error <= bound_float + 2.0 / 1024);
            CHECK(t.changed_too_far == 0);
            for (const auto &r : {lab_test::lower_triangle_product(fp64, m, k, op_a, op_b, -1.0, 1.0),
                                  lab_test::lower_triangle_product(fp64, m, k, op_a, op_b, 1.5, 0.0)})
              {
                CHECK(r.worst_error <= (k + 2) * eps_double);
                CHECK(r.changed_too_far == 0);
              }
          }
}

// The helper above must be able to fail: a product that computes C whole (ignoring the
// request) changes entries beyond the overhang, and one that writes nothing is wrong
// below the diagonal (NaN, with C poisoned).
TEST_CASE("cublas_gemm: the lower-triangle check fails on a product that ignores it", "[gpu]")
{
  lab::Cublas cublas;
  const lab::Gemm<float> whole = [&cublas](const lab::GemmArgs<float> &g, cudaStream_t stream) {
    lab::GemmArgs<float> all = g;
    all.output = lab::Output::whole;
    cublas.gemm(all, lab::CublasMath::fp32, stream);
  };
  CHECK(lab_test::lower_triangle_product(whole, 600, 8, lab::Op::none, lab::Op::transpose, -1.0f, 1.0f)
          .changed_too_far > 0);
  const lab::Gemm<float> nothing = [](const lab::GemmArgs<float> &, cudaStream_t) {};
  CHECK(std::isnan(
    lab_test::lower_triangle_product(nothing, 300, 8, lab::Op::none, lab::Op::transpose, 1.0f, 0.0f).worst_error));
}

// lab/vendor_math.h: the line every step prints names both libraries and what they run
// in; the course leaves both in their default math, and the strategy is the
// environment's unless it is set.
TEST_CASE("vendor_math_line: cuBLAS and cuSOLVER, their math mode and emulation strategy")
{
  const std::string line = lab::vendor_math_line();
  INFO(line);
  CHECK(lab_test::contains(line, "cuBLAS default math (the native precision), emulation strategy "));
  CHECK(lab_test::contains(line, "cuSOLVER default math (the native precision), emulation strategy "));
  CHECK(lab_test::contains(line, std::getenv("CUBLAS_EMULATION_STRATEGY") ? "CUBLAS_EMULATION_STRATEGY = "
                                                                          : "CUBLAS_EMULATION_STRATEGY unset"));
}
