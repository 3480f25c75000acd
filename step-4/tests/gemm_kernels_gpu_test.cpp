// Tests of every GPU kernel of step-4 against the double-precision reference. This
// program exits with 77 (CTest: skipped) on a machine without a GPU.
//
// Each kernel runs on random inputs (fixed seeds) of shapes chosen to break indexing:
// 1×1×1, sizes one below and above every tile (16, 32, 64, 128, 256), primes, a shape of
// about a thousand in each dimension, transposed operands where the kernel accepts
// them, α and β other than (1, 0), and leading dimensions larger than the rows. The
// output is poisoned (all NaN) before each run, so an entry a kernel forgets to write
// fails the check; NaN in the inputs must come out as NaN. The float kernels (1 to
// 12, 15 to 18) and the double ones (13, 14, 19) go through the same checks; a kernel that
// this GPU cannot run (kernel 14 needs FP64 tensor cores, kernels 16 to 19 an H100 or
// H200) is reported as skipped.
#include "gemm_kernels.h"
#include "gemm_check.h"
#include "kernels/11_autotuned.cuh"
#include "kernels/15_async_pipeline.cuh"
#include "kernels/18_wgmma_multicast.cuh"
#include "kernels/20_ozaki_int8.cuh"
#include "kernels/tma_operands.cuh"

#include <lab/device.h>
#include <lab/device_buffer.h>
#include <lab/random.h>
#include <lab/streams.h>
#include <first_answer_kept.h>
#include <lab_catch.h>
#include <lower_triangle_product.h>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace
{
  using step4::GemmArgs;
  using step4::GemmProblem;
  using step4::GemmShape;
  using step4::Op;

  // Runs @p launch on the problem and returns C. With β = 0 the device C is poisoned
  // (C is output only); otherwise it holds the problem's C.
  // @p launch is a kernel's launcher or any other lab::Gemm.
  template <typename T, typename Launch>
  lab::Matrix<T> run_on_gpu(const GemmProblem<T> &p, const Launch &launch)
  {
    lab::DeviceBuffer<T> a(p.a), b(p.b), c(p.c.size());
    if (p.beta == T(0))
      c.poison();
    else
      c.upload(p.c);
    const GemmArgs<T> args{p.shape, p.alpha, p.beta, a.data(), p.a.ld(),
                           b.data(), p.b.ld(),  c.data(), p.c.ld()};
    launch(args, nullptr);
    LAB_CHECK(cudaDeviceSynchronize());
    lab::Matrix<T> result(p.c.rows(), p.c.cols(), p.c.ld());
    c.download(result);
    return result;
  }

  // The shapes every kernel must get right, as (m, n, k). The large ones are a
  // test case of their own (tag [large]), which the compute-sanitizer runs leave out:
  // under the sanitizer a kernel runs a hundred times slower. 1200×272 has 10 rows
  // of 128-tiles and 3 columns: kernel 14 walks C in bands of tile rows, and this
  // shape ends in a partial band. Kernel 15 runs products with fewer 128-tiles than
  // the GPU has SMs on smaller tiles; 1537×1427 has 13 × 12 = 156 of them, enough
  // for its large tiles on GPUs of up to 156 SMs (the H100 has 132).
  constexpr GemmShape large_tiles_shape{1537, 1427, 67};

  std::vector<GemmShape> test_shapes(bool large)
  {
    if (large)
      return {{300, 129, 1000}, {1000, 999, 1001}, {1200, 272, 48}, large_tiles_shape};
    std::vector<GemmShape> shapes = {{1, 1, 1}, {2, 2, 2}, {3, 1, 5}, {1, 7, 3}};
    for (const int tile : {16, 32, 64, 128, 256})
      for (const int d : {-1, 1})
        {
          shapes.push_back({tile + d, tile, tile});
          shapes.push_back({tile, tile + d, tile});
          shapes.push_back({tile, tile, tile + d});
        }
    shapes.push_back({17, 33, 65});
    shapes.push_back({65, 17, 33});
    shapes.push_back({256, 256, 256});
    return shapes;
  }

  std::string describe(const GemmShape &s)
  {
    return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
           " " + step4::op_letter(s.op_a) + step4::op_letter(s.op_b);
  }

  // The transposes a kernel accepts: op = N only, or both.
  template <typename T>
  std::vector<Op> accepted_ops(const step4::GemmKernel<T> &kernel)
  {
    if (kernel.accepts_transposes)
      return {Op::none, Op::transpose};
    return {Op::none};
  }

  // The kernels of a list that this GPU can run; the others are reported as skipped.
  template <typename T>
  std::vector<step4::GemmKernel<T>> runnable(const std::vector<step4::GemmKernel<T>> &kernels)
  {
    std::vector<step4::GemmKernel<T>> result;
    for (const auto &kernel : kernels)
      if (kernel.runs_here())
        result.push_back(kernel);
      else
        WARN("kernel " << kernel.name << " skipped: this GPU cannot run it");
    return result;
  }

  // Every shape, with the transposes the kernel accepts, with (α, β) = (1, 0) and
  // (-1.5, 0.5); the error must be within the tolerance (FP32 or TF32 for float, the
  // double tolerance for double).
  template <typename T>
  void check_kernel(const step4::GemmKernel<T> &kernel, bool tf32, bool large = false)
  {
    INFO("kernel " << kernel.name);
    unsigned seed = 1;
    for (GemmShape shape : test_shapes(large))
      for (const Op op_a : accepted_ops(kernel))
        for (const Op op_b : accepted_ops(kernel))
          for (const bool scaled : {false, true})
            {
              shape.op_a = op_a;
              shape.op_b = op_b;
              const T alpha = scaled ? T(-1.5) : T(1), beta = scaled ? T(0.5) : T(0);
              const GemmProblem<T> p = step4::random_problem<T>(shape, alpha, beta, ++seed);
              INFO("shape " << describe(shape) << ", alpha " << alpha << ", beta " << beta);
              const double error = step4::gemm_error(p, run_on_gpu(p, kernel.launch));
              const double tolerance =
                tf32 ? step4::tf32_tolerance(shape.k) : step4::gemm_tolerance<T>(shape.k);
              CHECK(error <= tolerance);
            }
  }

  // A copy of @p m whose rows are @p pad elements longer than its columns.
  template <typename T>
  lab::Matrix<T> padded(const lab::Matrix<T> &m, int pad)
  {
    lab::Matrix<T> out(m.rows(), m.cols(), m.cols() + pad);
    for (int r = 0; r < m.rows(); ++r)
      for (int c = 0; c < m.cols(); ++c)
        out(r, c) = m(r, c);
    return out;
  }

  // The kernel on 70×90×110 with A, B and C padded by @p pad elements per row, with
  // every transpose it accepts.
  template <typename T>
  void check_padded(const step4::GemmKernel<T> &kernel, int pad, bool tf32)
  {
    for (const Op op_a : accepted_ops(kernel))
      for (const Op op_b : accepted_ops(kernel))
        {
          const GemmShape shape{70, 90, 110, op_a, op_b};
          GemmProblem<T> p = step4::random_problem<T>(shape, T(1), T(0), 99);
          p.a = padded(p.a, pad);
          p.b = padded(p.b, pad);
          p.c = padded(p.c, pad);
          INFO("kernel " << kernel.name << ", " << describe(shape) << ", padding " << pad);
          CHECK(step4::gemm_error(p, run_on_gpu(p, kernel.launch)) <=
                (tf32 ? step4::tf32_tolerance(110) : step4::gemm_tolerance<T>(110)));
        }
  }

  // A NaN at A(3, 5) enters every entry of row 3 of C, and nothing else; one at
  // B(7, 11) every entry of column 11. (A kernel that zero-fills or skips values
  // would lose the NaN; one that reads out of place would spread it.)
  template <typename T>
  void check_nan_propagation(const std::vector<step4::GemmKernel<T>> &kernels)
  {
    const GemmShape shape{130, 140, 150};
    GemmProblem<T> p = step4::random_problem<T>(shape, T(1), T(0), 5);
    p.a(3, 5) = std::numeric_limits<T>::quiet_NaN();
    p.b(7, 11) = std::numeric_limits<T>::quiet_NaN();
    for (const auto &kernel : kernels)
      {
        INFO("kernel " << kernel.name);
        const lab::Matrix<T> c = run_on_gpu(p, kernel.launch);
        int wrong = 0;
        for (int i = 0; i < shape.m; ++i)
          for (int j = 0; j < shape.n; ++j)
            wrong += std::isnan(c(i, j)) != (i == 3 || j == 11);
        CHECK(wrong == 0);
        CHECK(std::isnan(step4::gemm_error(p, c)));
      }
  }

  // With beta = 0, C on the device is all NaN (run_on_gpu poisons it) and the result
  // must still be exact; with beta = 1 and a NaN in C, that entry alone is NaN.
  template <typename T>
  void check_beta_reads_c(const std::vector<step4::GemmKernel<T>> &kernels)
  {
    GemmProblem<T> p = step4::random_problem<T>({40, 50, 60}, T(2), T(1), 8);
    p.c(4, 6) = std::numeric_limits<T>::quiet_NaN();
    for (const auto &kernel : kernels)
      {
        INFO("kernel " << kernel.name);
        const lab::Matrix<T> c = run_on_gpu(p, kernel.launch);
        int nan_count = 0;
        for (int i = 0; i < 40; ++i)
          for (int j = 0; j < 50; ++j)
            nan_count += std::isnan(c(i, j));
        CHECK(nan_count == 1);
        CHECK(std::isnan(c(4, 6)));
      }
  }
} // namespace

// Every FP32 kernel against the double reference, with padded and misaligned rows, NaN
// in A and B, and beta = 0 and 1: the checks above, one section per kernel, named
// after it. The sections are also the exercises' test (make exercise
// NAME=naive_product): tools/exercise runs the section of the exercise's kernel alone
// (lab_add_exercise's SECTION), so that a student's kernel is judged without the other
// exercises' kernels, which may still be blank. The TF32 and FP64 kernels have these
// checks in the test cases below.
TEST_CASE("every FP32 kernel, every check, one section per kernel", "[gpu][naive_product][shared_tiles][register_blocking][async_pipeline]")
{
  for (const auto &kernel : step4::fp32_kernels())
    {
      DYNAMIC_SECTION(kernel.name)
      {
        check_kernel(kernel, false);
        for (const int pad : {3, 4})
          check_padded(kernel, pad, false);
        check_nan_propagation<float>({kernel});
        check_beta_reads_c<float>({kernel});
      }
    }
}

TEST_CASE("every kernel is right on shapes of about a thousand", "[gpu][large]")
{
  // Kernel 15's two tile sizes are both among these shapes.
  REQUIRE(step4::is_small_product({300, 129, 1000}));
  REQUIRE_FALSE(step4::is_small_product(large_tiles_shape));
  for (const auto &kernel : step4::fp32_kernels())
    {
      DYNAMIC_SECTION(kernel.name) { check_kernel(kernel, false, true); }
    }
  for (const auto &kernel : runnable(step4::tf32_kernels()))
    {
      DYNAMIC_SECTION(kernel.name) { check_kernel(kernel, true, true); }
    }
  for (const auto &kernel : runnable(step4::fp64_kernels()))
    {
      DYNAMIC_SECTION(kernel.name) { check_kernel(kernel, false, true); }
    }
}

TEST_CASE("the TF32 tensor-core kernels are within the TF32 tolerance", "[gpu]")
{
  for (const auto &kernel : step4::tf32_kernels())
    {
      DYNAMIC_SECTION(kernel.name)
      {
        if (!kernel.runs_here())
          LAB_SKIP("kernel " << kernel.name << ": this GPU cannot run it");
        check_kernel(kernel, true);
      }
    }
}

TEST_CASE("the double-precision kernels match the reference", "[gpu]")
{
  for (const auto &kernel : runnable(step4::fp64_kernels()))
    {
      DYNAMIC_SECTION(kernel.name) { check_kernel(kernel, false); }
    }
}

TEST_CASE("padded leading dimensions and misaligned rows are honoured (TF32, FP64)", "[gpu]")
{
  // Matrices whose rows are longer than their used part (ld > cols), with odd
  // padding so that rows do not start on 16-byte boundaries (3 floats or doubles; 4
  // doubles keeps them aligned, 4 floats too): the kernels must use ld, and fall
  // back from 16-byte loads.
  for (const int pad : {3, 4})
    {
      for (const auto &kernel : runnable(step4::tf32_kernels()))
        check_padded(kernel, pad, true);
      for (const auto &kernel : runnable(step4::fp64_kernels()))
        check_padded(kernel, pad, false);
    }
}

TEST_CASE("NaN in A or B gives NaN in exactly the entries it touches (TF32, FP64)", "[gpu]")
{
  check_nan_propagation(runnable(step4::tf32_kernels()));
  check_nan_propagation(runnable(step4::fp64_kernels()));
}

TEST_CASE("beta = 0 never reads C; beta != 0 does (TF32, FP64)", "[gpu]")
{
  check_beta_reads_c(runnable(step4::tf32_kernels()));
  check_beta_reads_c(runnable(step4::fp64_kernels()));
}

TEST_CASE("the simple kernels refuse transposes they do not implement", "[gpu]")
{
  for (const auto &kernel : step4::fp32_kernels())
    if (!kernel.accepts_transposes)
      {
        INFO("kernel " << kernel.name);
        const GemmProblem<float> p =
          step4::random_problem<float>({8, 8, 8, Op::transpose}, 1.0f, 0.0f, 3);
        CHECK_THROWS_AS(run_on_gpu(p, kernel.launch), std::invalid_argument);
      }
}

namespace
{
  // step4::gemm (or @p product) with k = 0 must compute C = beta C.
  template <typename T, typename Product = step4::CourseGemm>
  void check_k_zero(const Product &product = step4::gemm)
  {
    GemmProblem<T> p = step4::random_problem<T>({5, 6, 1}, T(2), T(0.5), 11);
    p.shape.k = 0;
    p.a = lab::Matrix<T>(5, 1);
    p.b = lab::Matrix<T>(1, 6);
    const lab::Matrix<T> c = run_on_gpu(p, product);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 6; ++j)
        CHECK(c(i, j) == T(0.5) * p.c(i, j));
  }
} // namespace

TEST_CASE("step4::gemm: empty products do nothing, k = 0 scales C by beta", "[gpu]")
{
  // m = 0 or n = 0: nothing to compute, and no launch error.
  lab::DeviceBuffer<float> dummy(16);
  step4::gemm(GemmArgs<float>{{0, 4, 4}, 1.0f, 0.0f, dummy.data(), 4, dummy.data(), 4,
                              dummy.data(), 4});
  step4::gemm(GemmArgs<float>{{4, 0, 4}, 1.0f, 0.0f, dummy.data(), 4, dummy.data(), 4,
                              dummy.data(), 4});
  LAB_CHECK(cudaDeviceSynchronize());
  // k = 0: C = beta C, in both precisions (in double on kernel 14 where the GPU has
  // FP64 tensor cores: its loop over k runs no step at all).
  check_k_zero<float>();
  check_k_zero<double>();
}

TEST_CASE("step4::gemm is a lab::Gemm in float and in double", "[gpu]")
{
  // How step-5 plugs the course's product into steps 2 and 3: through the interface.
  const lab::Gemm<float> gemm_float = step4::gemm;
  const lab::Gemm<double> gemm_double = step4::gemm;
  for (const GemmShape &shape : {GemmShape{33, 17, 65, Op::transpose, Op::none},
                                 GemmShape{64, 65, 31, Op::none, Op::transpose},
                                 GemmShape{129, 127, 128}})
    {
      INFO(describe(shape));
      const GemmProblem<float> pf = step4::random_problem<float>(shape, -1.5f, 0.5f, 21);
      CHECK(step4::gemm_error(pf, run_on_gpu(pf, gemm_float)) <=
            step4::gemm_tolerance<float>(shape.k));
      const GemmProblem<double> pd = step4::random_problem<double>(shape, -1.5, 0.5, 22);
      CHECK(step4::gemm_error(pd, run_on_gpu(pd, gemm_double)) <=
            step4::gemm_tolerance<double>(shape.k));
    }
}

TEST_CASE("step4::gemm_tf32 is a lab::Gemm within the TF32 tolerance for any shape", "[gpu]")
{
  // Kernels 16 to 18 where they run (18 on the largest shape, which has more tiles
  // than an H200 has SMs), else kernels 12 and 15: every transpose, edges of every
  // tile, k = 0 and empty products.
  const lab::Gemm<float> gemm = step4::gemm_tf32;
  INFO("kernel 16 " << (step4::find_float_kernel("16")->runs_here() ? "runs here" : "does not run here"));
  for (const Op op_a : {Op::none, Op::transpose})
    for (const Op op_b : {Op::none, Op::transpose})
      for (const GemmShape base : {GemmShape{1, 1, 1}, GemmShape{129, 257, 33}, GemmShape{127, 255, 100},
                                   GemmShape{300, 20, 1000}, GemmShape{2100, 2177, 64}})
        {
          GemmShape shape = base;
          shape.op_a = op_a;
          shape.op_b = op_b;
          INFO(describe(shape));
          const GemmProblem<float> p = step4::random_problem<float>(shape, -1.5f, 0.5f, 23);
          CHECK(step4::gemm_error(p, run_on_gpu(p, gemm)) <= step4::tf32_tolerance(shape.k));
        }
  lab::DeviceBuffer<float> dummy(16);
  step4::gemm_tf32(GemmArgs<float>{{0, 4, 4}, 1.0f, 0.0f, dummy.data(), 4, dummy.data(), 4,
                                   dummy.data(), 4});
  LAB_CHECK(cudaDeviceSynchronize());
  check_k_zero<float>(step4::gemm_tf32);
}

// Kernels 16 to 19 exist only for compute capability 9.0 (sm_90a). Where they run,
// they must be right; where they cannot, they must say so and refuse to launch instead
// of leaving C unwritten. Either way the test asserts something: on the course's GPU
// it is no skip.
template <typename T>
void check_runs_or_refuses(const step4::GemmKernel<T> *kernel, double tolerance)
{
  REQUIRE(kernel != nullptr);
  INFO("kernel " << kernel->name);
  // On the course's GPU (LAB_REQUIRE_GPU=1) a Hopper device must have them: a build
  // whose architectures were not read as including 90 ("native", "90-real") lost them
  // quietly.
  const lab::DeviceInfo device = lab::query_device();
  if (lab::gpu_required() && device.major == 9 && device.minor == 0)
    CHECK(kernel->runs_here());
  const GemmProblem<T> p = step4::random_problem<T>({8, 8, 8}, T(1), T(0), 3);
  if (kernel->runs_here())
    CHECK(step4::gemm_error(p, run_on_gpu(p, kernel->launch)) <= tolerance);
  else
    CHECK_THROWS_AS(run_on_gpu(p, kernel->launch), std::runtime_error);
}

TEST_CASE("kernels 16 to 19 run where they can, and elsewhere are listed as not available and refuse to launch",
          "[gpu]")
{
  for (const char *name : {"16", "17", "18"})
    check_runs_or_refuses(step4::find_float_kernel(name), step4::tf32_tolerance(8));
  check_runs_or_refuses(step4::find_double_kernel("19"), step4::gemm_tolerance<double>(8));
}

// step4::gemm_tf32 takes kernel 18 over kernel 17 from one tile of 256 × 128 per SM.
TEST_CASE("kernel 18 is chosen from one tile per SM on", "[gpu]")
{
  const int sms = lab::current_device_attribute(cudaDevAttrMultiProcessorCount);
  CHECK(step4::multicast_pays({256, 128 * sms, 64}));
  CHECK(step4::multicast_pays({256 * sms, 1, 64}));
  CHECK_FALSE(step4::multicast_pays({256, 128 * (sms - 1), 64}));
  CHECK_FALSE(step4::multicast_pays({1, 1, 100000}));
}

// One kernel's lower triangle, in every transpose, for each m of @p sizes (k = 40),
// within @p tolerance. Skipped where the kernel cannot run (the test above asserts
// that this is not the course's GPU).
template <typename T>
void check_lower_triangle(const step4::GemmKernel<T> *kernel, std::initializer_list<int> sizes,
                          double tolerance, T alpha, T beta)
{
  REQUIRE(kernel != nullptr);
  if (!kernel->runs_here())
    return;
  for (const lab::Op op_a : {lab::Op::none, lab::Op::transpose})
    for (const lab::Op op_b : {lab::Op::none, lab::Op::transpose})
      for (const int m : sizes)
        {
          INFO("kernel " << kernel->name << ", m = " << m << " " << lab::op_letter(op_a) << lab::op_letter(op_b));
          const auto t = lab_test::lower_triangle_product<T>(kernel->launch, m, 40, op_a, op_b, alpha, beta);
          CHECK(t.worst_error <= tolerance);
          CHECK(t.changed_too_far == 0);
        }
}

// Kernels 14 and 16 to 19 leave out the tiles above the diagonal of a lower-triangle
// product themselves (kernel 18 a cluster's two tiles together): each, not only the
// one step4::gemm_tf32 or step4::gemm picks (on Hopper kernel 19, not 14), must be
// right on and below the diagonal and change nothing at or beyond the overhang; sizes
// around one tile (128, 256) and one cluster's tiles, in every transpose.
TEST_CASE("kernels 14 and 16 to 19 compute a lower triangle on request", "[gpu]")
{
  for (const char *name : {"16", "17", "18"})
    check_lower_triangle(step4::find_float_kernel(name), {1, 129, 255, 257, 600, 1000},
                         step4::tf32_tolerance(40), 1.5f, 0.5f);
  for (const char *name : {"14", "19"})
    check_lower_triangle(step4::find_double_kernel(name), {1, 127, 129, 257, 600, 1000},
                         step4::gemm_tolerance<double>(40), -1.0, 1.0);
}

// Kernel 11's tuner: every candidate is kernel 10 with other tiles, used in the common
// case only (A and B as stored, rows of a multiple of 4 floats). Each must be right on
// shapes that are not multiples of its tiles, the tuner's own check must pass them
// all, and after tuning kernel 11 (which the other tests run untuned, as kernel 10)
// must be right with the configuration it chose.
TEST_CASE("kernel 11's tuner checks every candidate, and each is right", "[gpu]")
{
  const std::vector<GemmShape> shapes = {{4, 4, 4}, {1, 8, 12}, {132, 260, 68}, {300, 196, 36}};
  for (const step4::TuningCandidate &candidate : step4::tuning_candidates())
    for (const GemmShape &shape : shapes)
      {
        INFO(candidate.name << ", " << shape.m << " x " << shape.n << " x " << shape.k);
        const GemmProblem<float> p = step4::random_problem<float>(shape, 1.0f, 0.0f, 21);
        CHECK(step4::gemm_error(p, run_on_gpu(p, candidate.launch)) <=
              step4::gemm_tolerance<float>(shape.k));
      }
  const std::vector<step4::TuningResult> results = step4::autotune(256, 1);
  REQUIRE(results.size() == step4::tuning_candidates().size());
  for (const step4::TuningResult &result : results)
    {
      INFO(result.name << ": error " << result.error << ", relative speed " << result.relative_speed);
      CHECK(result.passed);
      CHECK(result.relative_speed > 0.0); // false for NaN too
      CHECK(result.error <= step4::gemm_tolerance<float>(256));
    }
  CHECK(step4::tuned_choice() == results[step4::fastest_checked(results)].name);
  const GemmProblem<float> p = step4::random_problem<float>({260, 132, 100}, 1.0f, 0.0f, 22);
  CHECK(step4::gemm_error(p, run_on_gpu(p, step4::launch_11_autotuned)) <= step4::gemm_tolerance<float>(100));
}

// The fault: the tuner timed its candidates and kept the fastest, never looking at
// what they computed, so a candidate that skips the work wins. Here two such
// candidates, one that writes nothing (C stays poisoned) and one that writes zeros,
// are the fastest of the list: the check must fail both, and the tuner choose the
// only right one.
TEST_CASE("planted: a candidate that writes nothing or zeros is caught by the tuner and never chosen", "[gpu]")
{
  const std::vector<step4::TuningCandidate> candidates = {
    step4::tuning_candidates().front(),
    {"writes nothing", [](const GemmArgs<float> &, cudaStream_t) {}},
    {"writes zeros",
     [](const GemmArgs<float> &g, cudaStream_t stream) {
       LAB_CHECK(cudaMemsetAsync(g.c, 0, sizeof(float) * g.shape.m * g.ldc, stream));
     }},
  };
  const std::vector<step4::TuningResult> results = step4::measure(candidates, 128, 1);
  REQUIRE(results.size() == 3);
  CHECK(results[0].passed);
  CHECK_FALSE(results[1].passed);
  CHECK(std::isnan(results[1].error));
  CHECK_FALSE(results[2].passed);
  CHECK(step4::fastest_checked(results) == 0);
}

// The faults a timing harness must not let through (issue 54): a kernel that computes
// on its first call only and then hands back the answer it kept (in a buffer of its
// own, which poisoning C cannot reach), and one that writes C on its first call only.
// Each run's input is fresh (A times a power of two it cannot know) and every run's
// result is checked: both must fail, and the honest kernel beside them pass. (A
// candidate is a plain function, so what the two remember lives here.)
namespace
{
  lab_test::FirstAnswerKept<float> *first_answer = nullptr;
  int calls_so_far = 0;

  void replays_its_first_answer(const GemmArgs<float> &g, cudaStream_t stream)
  {
    (*first_answer)(g.c, std::size_t(g.shape.m) * g.ldc,
                    [&] { step4::tuning_candidates().front().launch(g, stream); }, stream);
  }

  void writes_only_once(const GemmArgs<float> &g, cudaStream_t stream)
  {
    if (calls_so_far++ == 0)
      step4::tuning_candidates().front().launch(g, stream);
  }
} // namespace

TEST_CASE("planted: a kernel that replays its first answer, or writes only once, FAILs every run's check", "[gpu]")
{
  lab_test::FirstAnswerKept<float> kept;
  first_answer = &kept;
  const std::vector<step4::TuningCandidate> candidates = {
    step4::tuning_candidates().front(),
    {"replays its first answer", replays_its_first_answer},
    {"writes only once", writes_only_once},
  };
  const std::vector<step4::TuningResult> results = step4::measure(candidates, 128, 3);
  REQUIRE(results.size() == 3);
  CHECK(results[0].passed);
  INFO("errors: " << results[1].error << ", " << results[2].error);
  CHECK_FALSE(results[1].passed);
  CHECK_FALSE(results[2].passed);
  CHECK(step4::fastest_checked(results) == 0);
}

// A lower-triangle product (lab::Output::lower_triangle): kernel 15 in float (tiles of
// 64² below about 132 tiles, of 128² from 2100 on) and kernel 14 in double (tiles of
// 128²) leave out the tiles above the diagonal, TF32 goes in block columns: right on
// and below the diagonal, nothing changed at or beyond the overhang or in C's padding;
// sizes around one block column and one tile.
TEST_CASE("step4::gemm and gemm_tf32 compute a lower triangle on request", "[gpu]")
{
  for (const lab::Op op_a : {lab::Op::none, lab::Op::transpose})
    for (const lab::Op op_b : {lab::Op::none, lab::Op::transpose})
      for (const int m : {1, 255, 257, 600})
        {
          INFO(m << " " << lab::op_letter(op_a) << lab::op_letter(op_b));
          const auto f = lab_test::lower_triangle_product<float>(step4::gemm, m, 40, op_a, op_b, -1.0f, 1.0f);
          CHECK(f.worst_error <= step4::gemm_tolerance<float>(40));
          CHECK(f.changed_too_far == 0);
          const auto t = lab_test::lower_triangle_product<float>(step4::gemm_tf32, m, 40, op_a, op_b, 1.5f, 0.0f);
          CHECK(t.worst_error <= step4::tf32_tolerance(40));
          CHECK(t.changed_too_far == 0);
          const auto d = lab_test::lower_triangle_product<double>(step4::gemm, m, 40, op_a, op_b, -1.0, 1.0);
          CHECK(d.worst_error <= step4::gemm_tolerance<double>(40));
          CHECK(d.changed_too_far == 0);
        }
  for (const int m : {2100, 2177})
    {
      INFO(m << " on tiles of 128²");
      const auto f = lab_test::lower_triangle_product<float>(step4::gemm, m, 20, lab::Op::none, lab::Op::transpose,
                                                             -1.0f, 1.0f);
      CHECK(f.worst_error <= step4::gemm_tolerance<float>(20));
      CHECK(f.changed_too_far == 0);
    }
}

// @sect3{Kernel 20, the Ozaki scheme}
//
// On random matrices the scheme itself does the work (it says how many moduli it
// used: about 13 or 14), within DGEMM's tolerance at sizes that are not multiples of
// anything, 1 to 4097; with one modulus left out of the reconstruction (the planted
// fault) it must fail; entries from 10^-12 to 10^12 need more bits than 14 moduli hold,
// and the kernel must then still be right, by the course's double kernel, and say so.
namespace
{
  // Kernel 20 on @p p: within DGEMM's tolerance, and by the scheme itself (it says how
  // many moduli it used, and that it did not fall back to the double kernel).
  void check_by_the_scheme(const GemmProblem<double> &p)
  {
    CHECK(step4::gemm_error(p, run_on_gpu(p, step4::launch_20_ozaki_int8)) <=
          step4::gemm_tolerance<double>(p.shape.k));
    const step4::OzakiReport used = step4::last_ozaki_report();
    INFO("moduli " << used.moduli << ", bits " << used.bits << ", fell back: " << used.fell_back);
    CHECK(used.fell_back.empty());
    CHECK(used.moduli >= 8);
    CHECK(used.moduli <= 14);
  }
} // namespace

TEST_CASE("kernel 20 uses its moduli on random matrices, and one modulus left out FAILs", "[gpu]")
{
  for (const int n : {1, 2, 63, 65, 1000, 4097})
    {
      INFO("n = " << n);
      const GemmProblem<double> p = step4::random_problem<double>({n, n, n}, 1.0, 0.0, 70 + n);
      check_by_the_scheme(p);
      const auto one_left_out = [](const GemmArgs<double> &g, cudaStream_t stream) {
        step4::ozaki_product(g, stream, {1, 0});
      };
      CHECK_FALSE(step4::gemm_error(p, run_on_gpu(p, one_left_out)) <= step4::gemm_tolerance<double>(n));
    }
}

// Each row of A and each column of B scaled by its own power of ten, 10^-150 to
// 10^150: the scheme scales line by line, so it must still do the work itself (and
// both operands are read transposed and as stored, the two ways its passes walk them).
TEST_CASE("kernel 20 on lines of sizes from 1e-150 to 1e150: by the scheme, within DGEMM's bound", "[gpu]")
{
  for (const auto [op_a, op_b] :
       {std::pair{lab::Op::none, lab::Op::none}, std::pair{lab::Op::transpose, lab::Op::transpose}})
    {
      GemmProblem<double> p = step4::random_problem<double>({301, 257, 1000, op_a, op_b}, -0.75, 0.5, 98);
      lab::Random random(6);
      std::vector<double> row_scale(301), column_scale(257);
      for (double &s : row_scale)
        s = std::pow(10.0, std::round(random.uniform(-150, 150)));
      for (double &s : column_scale)
        s = std::pow(10.0, std::round(random.uniform(-150, 150)));
      for (int i = 0; i < p.a.rows(); ++i)
        for (int j = 0; j < p.a.cols(); ++j)
          p.a(i, j) *= row_scale[op_a == lab::Op::none ? i : j];
      for (int i = 0; i < p.b.rows(); ++i)
        for (int j = 0; j < p.b.cols(); ++j)
          p.b(i, j) *= column_scale[op_b == lab::Op::none ? j : i];
      check_by_the_scheme(p);
    }
}

// Kernel 20 computes C tile by tile when its copies of the operands would not fit in
// memory (from about n = 16384 on); here tiles of 512 on sizes that are not multiples
// of it, for all of C and for a lower triangle (the tiles above the diagonal left out,
// those on it lower triangles themselves: nothing above it may change).
TEST_CASE("kernel 20 tile by tile: every tile right, a lower triangle's upper part untouched", "[gpu]")
{
  const auto in_tiles = [](const GemmArgs<double> &g, cudaStream_t stream) {
    step4::ozaki_product(g, stream, {0, 512});
  };
  const GemmProblem<double> p = step4::random_problem<double>({1100, 1037, 700, lab::Op::transpose}, 1.5, -1.0, 97);
  CHECK(step4::gemm_error(p, run_on_gpu(p, in_tiles)) <= step4::gemm_tolerance<double>(700));
  CHECK(step4::last_ozaki_report().fell_back.empty());
  for (const int m : {513, 1100})
    {
      INFO("lower triangle, m = " << m);
      const auto d = lab_test::lower_triangle_product<double>(in_tiles, m, 300, lab::Op::none, lab::Op::transpose,
                                                              -1.0, 1.0);
      CHECK(d.worst_error <= step4::gemm_tolerance<double>(300));
      CHECK(d.changed_too_far == 0);
      CHECK(step4::last_ozaki_report().fell_back.empty());
    }
}

// Kernel 20 reads its bound on the host, which a stream being captured into a CUDA
// graph cannot do: there it must hand the product to the double kernel (which the
// graph then holds), and say so, never fail the capture.
TEST_CASE("kernel 20 inside a CUDA graph's capture: the double kernel, captured, and it says so", "[gpu]")
{
  const GemmProblem<double> p = step4::random_problem<double>({300, 200, 100}, 1.0, 0.0, 96);
  const auto captured = [](const GemmArgs<double> &g, cudaStream_t stream) {
    lab::CudaGraph graph;
    graph.capture([&](cudaStream_t capturing) { step4::launch_20_ozaki_int8(g, capturing); });
    graph.launch(stream);
  };
  CHECK(step4::gemm_error(p, run_on_gpu(p, captured)) <= step4::gemm_tolerance<double>(100));
  const step4::OzakiReport used = step4::last_ozaki_report();
  CHECK(used.moduli == 0);
  CHECK(used.fell_back.find("capture") != std::string::npos);
}

// step4::gemm_ozaki: kernel 20 for a product larger than 4096³ (it says how many
// moduli it used), within DGEMM's bound; step4::tallied counts it, and not a small one.
TEST_CASE("step4::gemm_ozaki takes kernel 20 for a large product, within DGEMM's bound", "[gpu]")
{
  const GemmProblem<double> p = step4::random_problem<double>({4100, 4099, 4097}, 1.0, 0.0, 95);
  const auto product = [](const GemmArgs<double> &g, cudaStream_t stream) { step4::gemm_ozaki(g, stream); };
  CHECK(step4::gemm_error(p, run_on_gpu(p, product)) <= step4::gemm_tolerance<double>(4097));
  if (step4::wgmma_available()) // kernel 20 where kernel 19 runs (gemm_kernels.h)
    CHECK(step4::last_ozaki_report().moduli >= 8);

  // step4::tallied counts what kernel 20 took: the large product, not a small one.
  step4::Kernel20Tally tally;
  const lab::Gemm<double> counted = step4::tallied(lab::Gemm<double>(step4::gemm_ozaki), tally);
  const GemmProblem<double> small = step4::random_problem<double>({300, 301, 299}, 1.0, 0.0, 96);
  CHECK(step4::gemm_error(p, run_on_gpu(p, counted)) <= step4::gemm_tolerance<double>(4097));
  CHECK(step4::gemm_error(small, run_on_gpu(small, counted)) <= step4::gemm_tolerance<double>(299));
  CHECK(tally.products == 2);
  CHECK(tally.taken == (step4::wgmma_available() ? 1 : 0));
  CHECK(tally.fell_back == 0);
  CHECK(tally.flops == 2.0 * 4100 * 4099 * 4097 + 2.0 * 300 * 301 * 299);
}

// Block-diagonal A and B: every entry of C outside the blocks has lines that share no
// nonzero position, an exact zero. The bound's magnitudes give 0 there as well, which
// alone would look like an entry that cannot be bounded; the overlap of the patterns
// tells them apart, and the scheme must run.
TEST_CASE("kernel 20 on block-diagonal matrices: the exact zeros need no bound", "[gpu]")
{
  GemmProblem<double> p = step4::random_problem<double>({301, 299, 300}, 1.0, 0.0, 94);
  const auto block = [](int i, int size) { return i * 3 / size; }; // three blocks
  for (int i = 0; i < 301; ++i)
    for (int q = 0; q < 300; ++q)
      if (block(i, 301) != block(q, 300))
        p.a(i, q) = 0;
  for (int q = 0; q < 300; ++q)
    for (int j = 0; j < 299; ++j)
      if (block(q, 300) != block(j, 299))
        p.b(q, j) = 0;
  check_by_the_scheme(p);
}

TEST_CASE("kernel 20 on entries from 1e-12 to 1e12: right, by the double kernel, and it says so", "[gpu]")
{
  GemmProblem<double> p = step4::random_problem<double>({300, 257, 301}, 1.0, 0.0, 99);
  lab::Random random(5);
  for (lab::Matrix<double> *m : {&p.a, &p.b})
    for (int i = 0; i < m->rows(); ++i)
      for (int j = 0; j < m->cols(); ++j)
        (*m)(i, j) *= std::pow(10.0, random.uniform(-12, 12));
  CHECK(step4::gemm_error(p, run_on_gpu(p, step4::launch_20_ozaki_int8)) <= step4::gemm_tolerance<double>(301));
  const step4::OzakiReport used = step4::last_ozaki_report();
  INFO("moduli " << used.moduli << ", fell back: " << used.fell_back);
  CHECK(used.moduli == 0);
  CHECK_FALSE(used.fell_back.empty());
}
