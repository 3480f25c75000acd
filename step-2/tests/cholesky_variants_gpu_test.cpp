// GPU tests of every variant of step-2 against the residual bound, on sizes chosen to
// break the tiling (1, 2, tile ± 1 for the tiles 16 and 64 and the panel widths,
// primes, about a thousand), in float and double; on matrices that fail at a chosen
// column (first, middle, last), which every variant must report as LAPACK's info,
// leaving no NaN behind; variant 10 on sizes it cuts in halves, once and twice, and
// failing in either half; band matrices (variants 4, 5, 7, 8 and 9 with a bandwidth),
// which must not touch what lies beyond the band; variants 5, 7, 8, 9 and 10 also as
// CUDA graphs;
// variant 8's base block alone, its factor and its inverse; variant 6's refined solve
// against FP32's accuracy. The workspace is poisoned (all NaN) before each run, so a
// variant that reads scratch it did not write fails. This program exits with 77
// (CTest: skipped) on a machine without a GPU.
#include "cholesky_variants.h"
#include "cusolver_cholesky.h"
#include "gpu_timing.h"
#include "variants/10_recursive.cuh"
#include "variants/6_mixed_precision_solve.cuh"
#include "variants/base_block_in_registers.cuh"
#include "spd_except_at.h"

#include <lab/cublas_gemm.h>
#include <lab/device_buffer.h>
#include <lab/probes.h>
#include <lab/residuals.h>
#include <lab/streams.h>
#include <lab/test_matrices.h>
#include <first_answer_kept.h>
#include <lab_catch.h>

#include <cmath>
#include <limits>
#include <vector>

namespace
{
  // A matrix on the GPU with what a variant needs to factorise it: the arguments, with
  // cuBLAS's product in the working precision.
  template <typename T>
  struct OnDevice
  {
    const lab::Matrix<T> &a;
    lab::DeviceBuffer<T> pristine, matrix, workspace;
    lab::DeviceBuffer<int> info;
    step2::CholeskyArgs<T> args;

    OnDevice(const step2::Variant<T> &variant, const lab::Matrix<T> &a_, lab::Cublas &cublas, int panel_width)
      : a(a_), pristine(a_), matrix(a_.size()), workspace(variant.workspace_elements(a_.rows(), panel_width)),
        info(1), args(step2::cholesky_args(matrix.data(), a.rows(), a.ld(), info.data(), workspace.data(),
                                           lab::cublas_gemm_exact<T>(cublas), panel_width))
    {}

    // A fresh copy of A; info and the workspace poisoned.
    void reset()
    {
      matrix.copy_from_device(pristine);
      info.poison();
      workspace.poison();
    }

    // The factor into @p l; returns info.
    int result(lab::Matrix<T> &l)
    {
      l = lab::Matrix<T>(a.rows(), a.cols(), a.ld());
      matrix.download(l);
      int status = -1;
      info.copy_to_host(&status, 1);
      return status;
    }
  };

  // Factorises @p a with @p variant on the GPU (told its bandwidth, or −1: dense);
  // returns info and the factor in @p l.
  template <typename T>
  int factorize(const step2::Variant<T> &variant, const lab::Matrix<T> &a, lab::Matrix<T> &l,
                lab::Cublas &cublas, int panel_width = 256, int bandwidth = -1)
  {
    OnDevice<T> device(variant, a, cublas, panel_width);
    device.args.bandwidth = bandwidth;
    device.reset();
    variant.factorize(device.args);
    return device.result(l);
  }

  // The sizes every variant must get right. The two of about a thousand are a test case
  // of their own (tag [large]), which the compute-sanitizer runs leave out.
  template <typename T>
  void check_sizes(lab::Cublas &cublas, bool large)
  {
    const std::vector<int> sizes = large ? std::vector<int>{1000, 1025}
                                         : std::vector<int>{1, 2, 15, 16, 17, 31, 63, 64, 65, 97, 127,
                                                            128, 129, 255, 256, 257, 331, 511, 513};
    for (const step2::Variant<T> &variant : step2::variants<T>())
      for (const int n : sizes)
        {
          INFO(variant.name << ", n = " << n << (sizeof(T) == 4 ? ", float" : ", double"));
          const lab::Matrix<T> a = lab::random_spd<T>(n, 1e3, 100 + n);
          lab::Matrix<T> l;
          CHECK(factorize(variant, a, l, cublas) == 0);
          CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<T>(4, n));
        }
  }

  template <typename T>
  void check_failures(lab::Cublas &cublas)
  {
    const int n = 300;
    for (const step2::Variant<T> &variant : step2::variants<T>())
      for (const int c : {0, 17, 64, 150, 256, n - 1})
        {
          INFO(variant.name << ", failing column " << c);
          const lab::Matrix<T> a = spd_except_at<T>(n, c);
          lab::Matrix<T> l;
          CHECK(factorize(variant, a, l, cublas) == c + 1);
          CHECK(lower_triangle_is_finite(l));
        }
  }
} // namespace

TEST_CASE("every variant meets the residual bound, float", "[gpu][one_launch_driver][one_launch_update][look_ahead_order]")
{
  lab::Cublas cublas;
  check_sizes<float>(cublas, false);
}

TEST_CASE("every variant meets the residual bound, double", "[gpu][one_launch_driver][one_launch_update][look_ahead_order]")
{
  lab::Cublas cublas;
  check_sizes<double>(cublas, false);
}

TEST_CASE("every variant meets the residual bound at about a thousand", "[gpu][large]")
{
  lab::Cublas cublas;
  check_sizes<float>(cublas, true);
  check_sizes<double>(cublas, true);
}

TEST_CASE("every variant reports the failing column and leaves no NaN", "[gpu][one_launch_driver][one_launch_update][look_ahead_order]")
{
  lab::Cublas cublas;
  check_failures<float>(cublas);
  check_failures<double>(cublas);
}

TEST_CASE("variants 4, 5, 7, 8 and 9 with every panel width, on sizes around them", "[gpu][look_ahead_order]")
{
  lab::Cublas cublas;
  for (const char *name : {"4", "5", "7", "8", "9"})
    for (const int panel_width : {64, 128, 192, 512})
      for (const int n : {panel_width - 1, panel_width + 1, 2 * panel_width + 3, 5 * panel_width - 7, 700})
        {
          INFO("variant " << name << ", panel width " << panel_width << ", n = " << n);
          const lab::Matrix<float> a = lab::random_spd<float>(n, 1e3, n);
          lab::Matrix<float> l;
          CHECK(factorize(*step2::find_variant<float>(name), a, l, cublas, panel_width) == 0);
          CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<float>(4, n));
          const lab::Matrix<double> ad = lab::random_spd<double>(n, 1e3, n);
          lab::Matrix<double> ld;
          CHECK(factorize(*step2::find_variant<double>(name), ad, ld, cublas, panel_width) == 0);
          CHECK(lab::cholesky_residual(ad, ld) <= lab::tolerance<double>(4, n));
        }
}

TEST_CASE("variants 7, 8 and 9 with panels wider than the panel width asked for", "[gpu][look_ahead_order]")
{
  // About n/16 columns, at most twice the width asked for: 128 for these sizes, which
  // are not multiples of it.
  lab::Cublas cublas;
  for (const char *name : {"7", "8", "9"})
    for (const int n : {1601, 2113, 2565})
      {
        INFO("variant " << name << ", n = " << n);
        const lab::Matrix<float> a = lab::random_spd<float>(n, 1e3, n);
        lab::Matrix<float> l;
        CHECK(factorize(*step2::find_variant<float>(name), a, l, cublas, 64) == 0);
        CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<float>(4, n));
        const lab::Matrix<double> ad = lab::random_spd<double>(n, 1e3, n);
        lab::Matrix<double> ld;
        CHECK(factorize(*step2::find_variant<double>(name), ad, ld, cublas, 64) == 0);
        CHECK(lab::cholesky_residual(ad, ld) <= lab::tolerance<double>(4, n));
      }
}

TEST_CASE("variant 10 by halves: once and twice, both precisions", "[gpu]")
{
  // With panel widths of 64, variant 10 takes panels of 128 from n = 2049 on and hands
  // parts of up to 16 of them (2048 rows) to variant 9: n = 2113 is cut once (at 1152),
  // n = 4500 twice on each side, and its first update's triangle (2196 rows, at least
  // twice eight panels) is halved too. Sizes that are no multiple of a panel.
  lab::Cublas cublas;
  const step2::Variant<double> &recursive = *step2::find_variant<double>("10");
  for (const int n : {2113, 4500})
    {
      INFO("n = " << n);
      REQUIRE(n > step2::recursion_base(n, 64));
      const lab::Matrix<double> a = lab::random_spd<double>(n, 1e3, n);
      lab::Matrix<double> l;
      CHECK(factorize(recursive, a, l, cublas, 64) == 0);
      CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<double>(4, n));
      const lab::Matrix<float> af = lab::convert<float>(a);
      lab::Matrix<float> lf;
      CHECK(factorize(*step2::find_variant<float>("10"), af, lf, cublas, 64) == 0);
      CHECK(lab::cholesky_residual(af, lf) <= lab::tolerance<float>(4, n));
    }
}

TEST_CASE("variant 10 reports the failing column in either half and leaves no NaN", "[gpu]")
{
  // n = 2113 is cut after column 1151: a failure in the first half, on either side of
  // the cut, and in the last column. The parts after a failure must keep its column.
  lab::Cublas cublas;
  const int n = 2113;
  const lab::Matrix<double> spd = lab::random_spd<double>(n, 100, 7);
  for (const int c : {0, 700, 1151, 1152, n - 1})
    {
      INFO("failing column " << c);
      const lab::Matrix<double> a = failing_at<double>(spd, c);
      lab::Matrix<double> l;
      CHECK(factorize(*step2::find_variant<double>("10"), a, l, cublas, 64) == c + 1);
      CHECK(lower_triangle_is_finite(l));
      const lab::Matrix<float> af = lab::convert<float>(a);
      lab::Matrix<float> lf;
      CHECK(factorize(*step2::find_variant<float>("10"), af, lf, cublas, 64) == c + 1);
      CHECK(lower_triangle_is_finite(lf));
    }
}

namespace
{
  // Variant 8's base block on the w×w matrix @p a, stored with a leading dimension
  // three larger and NaN above its diagonal (the kernel must not read there), X into a
  // buffer of leading dimension w + 1 filled with NaN (the kernel must not write
  // above its diagonal). @p info_before is info's value on entry (nonzero: an earlier
  // block failed). Returns info; L and X come back with zeros above their diagonals,
  // @p upper_untouched says whether X's upper triangle was left alone.
  template <typename T>
  int base_block_in_registers(const lab::Matrix<T> &a, int info_before, lab::Matrix<T> &l, lab::Matrix<T> &x,
                              bool &upper_untouched)
  {
    const int w = a.rows(), column_offset = 1000;
    lab::Matrix<T> stored(w, w, w + 3);
    for (int i = 0; i < w; ++i)
      for (int j = 0; j < w; ++j)
        stored(i, j) = j <= i ? a(i, j) : std::numeric_limits<T>::quiet_NaN();
    lab::DeviceBuffer<T> a_device(stored), x_device(static_cast<std::size_t>(w) * (w + 1));
    lab::DeviceBuffer<int> info(1);
    info.copy_from_host(&info_before, 1);
    x_device.poison();
    step2::factorize_and_invert_in_registers(a_device.data(), w, w + 3, x_device.data(), w + 1, info.data(),
                                             column_offset, nullptr);
    lab::Matrix<T> x_stored(w, w, w + 1);
    a_device.download(stored);
    x_device.download(x_stored);
    int status = 0;
    info.copy_to_host(&status, 1);
    l = lab::Matrix<T>(w, w);
    x = lab::Matrix<T>(w, w);
    upper_untouched = true;
    for (int i = 0; i < w; ++i)
      for (int j = 0; j < w; ++j)
        if (j <= i)
          {
            l(i, j) = stored(i, j);
            x(i, j) = x_stored(i, j);
          }
        else
          upper_untouched = upper_untouched && std::isnan(x_stored(i, j));
    return status == 0 ? 0 : status - column_offset;
  }

  // Whether every entry is zero (NaN is not).
  template <typename T>
  bool all_zero(const lab::Matrix<T> &m)
  {
    for (int i = 0; i < m.rows(); ++i)
      for (int j = 0; j < m.cols(); ++j)
        if (m(i, j) != 0)
          return false;
    return true;
  }

  // Whether @p l's lower triangle is @p a's.
  template <typename T>
  bool same_lower_triangle(const lab::Matrix<T> &l, const lab::Matrix<T> &a)
  {
    for (int i = 0; i < a.rows(); ++i)
      for (int j = 0; j <= i; ++j)
        if (l(i, j) != a(i, j))
          return false;
    return true;
  }

  template <typename T>
  void check_base_block_in_registers()
  {
    for (const int w : {1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 127, 128})
      {
        INFO("w = " << w << (sizeof(T) == 4 ? ", float" : ", double"));
        const lab::Matrix<T> a = lab::random_spd<T>(w, 1e3, 40 + w);
        lab::Matrix<T> l, x;
        bool upper_untouched = false;
        CHECK(base_block_in_registers(a, 0, l, x, upper_untouched) == 0);
        CHECK(upper_untouched);
        CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<T>(4, w));
        // L X = I to a few w ε relative to ‖L‖ ‖X‖: X is the inverse of the L computed.
        CHECK(lab::inverse_residual(l, x, w) <= lab::tolerance<T>(4, w));
      }
    for (const int c : {0, 1, 50, 127})
      {
        INFO("failing column " << c << (sizeof(T) == 4 ? ", float" : ", double"));
        lab::Matrix<T> l, x;
        bool upper_untouched = false;
        CHECK(base_block_in_registers(spd_except_at<T>(128, c), 0, l, x, upper_untouched) == c + 1);
        CHECK(lower_triangle_is_finite(l));
        CHECK(all_zero(x));
      }
    // After a failure in an earlier block: X zero, A untouched, info kept.
    const lab::Matrix<T> a = lab::random_spd<T>(70, 1e3, 3);
    lab::Matrix<T> l, x;
    bool upper_untouched = false;
    CHECK(base_block_in_registers(a, 1000 + 5, l, x, upper_untouched) == 5);
    CHECK(all_zero(x));
    CHECK(same_lower_triangle(l, a));
  }
} // namespace

TEST_CASE("variant 8's base block: its factor and its inverse, every size up to 128, and its failures", "[gpu]")
{
  check_base_block_in_registers<float>();
  check_base_block_in_registers<double>();
}

namespace
{
  // A symmetric band matrix, zero more than b rows from its diagonal, positive definite
  // by diagonal dominance: random entries in [-1, 1] in the band, 2b + 2 or more on the
  // diagonal.
  lab::Matrix<double> band_spd(int n, int b, unsigned seed)
  {
    const lab::Matrix<double> r = lab::random_matrix<double>(n, n, seed);
    lab::Matrix<double> a(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        if (i - j <= b)
          a(i, j) = a(j, i) = i == j ? 2.0 * b + 2 + std::abs(r(i, i)) : r(i, j);
    return a;
  }

  // Factorises the band matrix @p a (bandwidth b) with a band variant: the entries more
  // than b + nb − 1 rows below the diagonal (nb: the width of the variant's panels for
  // this n, Variant::panel_width), which it must neither read nor write, are NaN on
  // the GPU. Returns info; checks that the NaNs are still there and that the
  // factor's band is finite, and gives the factor's band (zeros elsewhere) in @p l.
  template <typename T>
  int factorize_band(const step2::Variant<T> &variant, const lab::Matrix<T> &a, int b, int panel_width,
                     lab::Matrix<T> &l, lab::Cublas &cublas)
  {
    const int n = a.rows();
    const int window = b + variant.panel_width(n, panel_width) - 1;
    lab::Matrix<T> poisoned = a;
    for (int i = 0; i < n; ++i)
      for (int j = 0; i - j > window; ++j)
        poisoned(i, j) = std::numeric_limits<T>::quiet_NaN();
    lab::Matrix<T> result;
    const int info = factorize(variant, poisoned, result, cublas, panel_width, b);
    l = lab::Matrix<T>(n, n);
    bool untouched = true, finite = true;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        if (i - j > window)
          untouched = untouched && std::isnan(result(i, j));
        else if (i - j <= b)
          {
            l(i, j) = result(i, j);
            finite = finite && std::isfinite(result(i, j));
          }
    CHECK(untouched);
    CHECK(finite);
    return info;
  }
} // namespace

TEST_CASE("variants 4, 5, 7, 8 and 9 factorise a band matrix inside its band", "[gpu]")
{
  lab::Cublas cublas;
  for (const char *name : {"4", "5", "7", "8", "9"})
    for (const int panel_width : {64, 192})
      for (const int n : {1, 2, 130, 301, 700})
        for (const int b : {0, 1, 63, 64, 65, 200, n})
          {
            INFO("variant " << name << ", panel width " << panel_width << ", n = " << n << ", bandwidth " << b);
            const lab::Matrix<double> a = band_spd(n, b, 11 + n + b);
            lab::Matrix<float> l;
            const lab::Matrix<float> af = lab::convert<float>(a);
            CHECK(factorize_band(*step2::find_variant<float>(name), af, b, panel_width, l, cublas) == 0);
            CHECK(lab::cholesky_residual(af, l) <= lab::tolerance<float>(4, n));
            lab::Matrix<double> ld;
            CHECK(factorize_band(*step2::find_variant<double>(name), a, b, panel_width, ld, cublas) == 0);
            CHECK(lab::cholesky_residual(a, ld) <= lab::tolerance<double>(4, n));
          }
}

TEST_CASE("a band matrix that is not positive definite is reported at its column", "[gpu]")
{
  lab::Cublas cublas;
  const int n = 500, b = 90;
  for (const char *name : {"4", "5", "7", "8", "9"})
    for (const int c : {0, 64, 255, 256, n - 1})
      {
        INFO("variant " << name << ", failing column " << c);
        const lab::Matrix<double> a = failing_at<double>(band_spd(n, b, 5), c);
        lab::Matrix<double> l;
        CHECK(factorize_band(*step2::find_variant<double>(name), a, b, 128, l, cublas) == c + 1);
      }
}

namespace
{
  // Captures @p name's factorisation of a random SPD matrix of order n (double,
  // panel width @p panel_width) in a CUDA graph and launches it twice, each time on a
  // fresh copy of A with info and the workspace poisoned: both must meet the bound.
  void check_launched_twice_as_a_graph(const char *name, int n, int panel_width, lab::Cublas &cublas)
  {
    const step2::Variant<double> &variant = *step2::find_variant<double>(name);
    const lab::Matrix<double> a = lab::random_spd<double>(n, 1e3, 50 + n);
    OnDevice<double> device(variant, a, cublas, panel_width);
    lab::CudaGraph graph;
    graph.capture([&](cudaStream_t stream) {
      device.args.stream = stream;
      variant.factorize(device.args);
    });
    for (int run = 0; run < 2; ++run)
      {
        INFO("variant " << name << ", n = " << n << ", run " << run);
        device.reset();
        graph.launch();
        lab::Matrix<double> l;
        CHECK(device.result(l) == 0);
        CHECK(lab::cholesky_residual(a, l) <= lab::tolerance<double>(4, n));
      }
  }
} // namespace

TEST_CASE("variants 5, 7, 8 and 9 captured in a CUDA graph and launched twice", "[gpu][look_ahead_order]")
{
  lab::Cublas cublas;
  for (const char *name : {"5", "7", "8", "9"})
    for (const int n : {1, 200, 777})
      check_launched_twice_as_a_graph(name, n, 128, cublas);
}

TEST_CASE("variant 10, cut in halves, captured in a CUDA graph and launched twice", "[gpu]")
{
  lab::Cublas cublas;
  check_launched_twice_as_a_graph("10", 2113, 64, cublas); // cut once with panel widths of 64
}

namespace
{
  // Variant 6 on A x = b: returns info, the backward error ||b - A x|| / (||A|| ||x||)
  // and the float factor's residual against A.
  struct MixedOutcome
  {
    int info;
    double error, factor_residual;
    bool converged;
    int rounds;
  };

  // The right-hand side of the systems of order n below.
  template <typename T>
  lab::Matrix<T> right_hand_side(int n)
  {
    return lab::random_matrix<T>(n, 1, 9 + n);
  }

  // The backward error of cuSOLVER's potrf + potrs in the same precision on the same
  // system: the accuracy variant 6 promises.
  template <typename T>
  double potrs_error(const lab::Matrix<T> &a)
  {
    const int n = a.rows();
    const lab::Matrix<T> b = right_hand_side<T>(n);
    lab::DeviceBuffer<T> factor(a), x(b);
    lab::DeviceBuffer<int> info(1);
    step2::CusolverCholesky<T> cusolver(n, a.ld());
    cusolver.factorize(factor.data(), info.data());
    cusolver.solve(factor.data(), step2::CusolverCholesky<T>::Factor::as_potrf_left_it, x.data(), 1, n, info.data());
    lab::Matrix<T> solution(n, 1);
    x.download(solution);
    return lab::solve_residual(a, solution, b, 1);
  }

  // With @p nan_above_diagonal, the device copy of A holds NaN above its diagonal
  // and the solve is told so (it must read only the lower triangle, its residual's
  // SYMV the UPPER one of cuBLAS); without, A is stored whole and the SYMV reads the
  // other triangle (LOWER). @p gemm, if given, is every product of the factorisation
  // (the panels' and the trailing update's).
  template <typename T>
  MixedOutcome solve_mixed(const lab::Matrix<T> &a, lab::Cublas &cublas, int panel_width,
                           bool nan_above_diagonal = false, const lab::Gemm<float> &gemm = {})
  {
    const int n = a.rows();
    const lab::Matrix<T> b = right_hand_side<T>(n);
    lab::Matrix<T> stored = a;
    if (nan_above_diagonal)
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
          stored(i, j) = std::numeric_limits<T>::quiet_NaN();
    lab::DeviceBuffer<T> a_device(stored), b_device(b), x_device(n);
    x_device.poison();
    using Stored = typename step2::MixedPrecisionSolve<T>::Stored;
    step2::MixedPrecisionSolve<T> solver(n, a.ld(), panel_width, cublas,
                                         nan_above_diagonal ? Stored::lower_triangle : Stored::whole, gemm);
    const int info = solver.solve(a_device.data(), b_device.data(), x_device.data());
    lab::Matrix<T> x(n, 1);
    lab::Matrix<float> l(n, n, a.ld());
    x_device.download(x);
    solver.factor().download(l);
    if (info != 0)
      return {info, 0, 0, false, 0};
    return {info, lab::solve_residual(a, x, b, 1), lab::cholesky_residual(a, lab::convert<T>(l)), solver.converged(),
            solver.rounds()};
  }
} // namespace

TEST_CASE("variant 6 refines the TF32 solution to FP32 accuracy", "[gpu]")
{
  lab::Cublas cublas;
  for (const int n : {1, 2, 63, 65, 255, 257, 700, 1025})
    {
      INFO("n = " << n);
      const lab::Matrix<float> a = lab::random_spd<float>(n, 1e3, 60 + n);
      const MixedOutcome outcome = solve_mixed(a, cublas, 128);
      CHECK(outcome.info == 0);
      CHECK(outcome.converged);
      CHECK(outcome.error <= std::sqrt(double(n)) * std::numeric_limits<float>::epsilon());
      // LAPACK's bound above is loose enough for the TF32 factor's first solution; the
      // rounds are there to reach spotrs's accuracy (within a factor of 2, and a
      // rounding's worth where both are near zero, n = 1 and 2).
      CHECK(outcome.error <= 2 * potrs_error(a) + std::numeric_limits<float>::epsilon() / 64);
      // The factor itself has only TF32's accuracy (step2::tf32_factor_tolerance, below 1
      // at every size here, so that an all-zero factor fails).
      CHECK(outcome.factor_residual <= step2::tf32_factor_tolerance(n, 1e3));
    }
}

TEST_CASE("variant 6 in double refines a float factor to FP64 accuracy, as LAPACK's dsposv", "[gpu]")
{
  // The bound is double's: √n ε with ε = 2^-52, nine orders of magnitude below what the
  // float factor alone gives (the first solution's error, about 10^-7, would fail it).
  lab::Cublas cublas;
  for (const int n : {1, 2, 63, 65, 255, 257, 700, 1025})
    {
      INFO("n = " << n);
      const lab::Matrix<double> a = lab::random_spd<double>(n, 1e3, 60 + n);
      const MixedOutcome outcome = solve_mixed(a, cublas, 128);
      CHECK(outcome.info == 0);
      CHECK(outcome.converged);
      CHECK(outcome.error <= std::sqrt(double(n)) * std::numeric_limits<double>::epsilon());
      CHECK(outcome.error <= 2 * potrs_error(a) + std::numeric_limits<double>::epsilon() / 64);
      CHECK(outcome.factor_residual <= step2::tf32_factor_tolerance(n, 1e3));
      // The first solution is nowhere near double's bound: at least one correction.
      if (n >= 63)
        CHECK(outcome.rounds >= 1);
      // Only A's lower triangle is read, in double too.
      if (n == 257)
        {
          const MixedOutcome lower_only = solve_mixed(a, cublas, 128, true);
          CHECK(lower_only.converged);
          CHECK(lower_only.error <= std::sqrt(double(n)) * std::numeric_limits<double>::epsilon());
        }
    }
}

TEST_CASE("variant 6 reads only the lower triangle, and factorises with the products it is given", "[gpu]")
{
  lab::Cublas cublas;
  const lab::Gemm<float> fp32 = lab::cublas_gemm(cublas, lab::CublasMath::fp32);
  for (const int n : {65, 257, 700})
    {
      INFO("n = " << n);
      const lab::Matrix<float> a = lab::random_spd<float>(n, 1e3, 60 + n);
      const MixedOutcome outcome = solve_mixed(a, cublas, 128, true);
      CHECK(outcome.info == 0);
      CHECK(outcome.converged);
      CHECK(outcome.error <= std::sqrt(double(n)) * std::numeric_limits<float>::epsilon());
      // With FP32 products the factor has FP32's accuracy, a bound the TF32 products'
      // rounding (2^-11 per product input) need not meet.
      const MixedOutcome fp32_products = solve_mixed(a, cublas, 128, true, fp32);
      CHECK(fp32_products.converged);
      CHECK(fp32_products.factor_residual <= 10 * std::sqrt(double(n)) * std::numeric_limits<float>::epsilon());
    }
}

TEST_CASE("variant 6 reports a matrix that is not positive definite", "[gpu]")
{
  lab::Cublas cublas;
  for (const int c : {0, 150, 299})
    {
      INFO("failing column " << c);
      CHECK(solve_mixed(spd_except_at<float>(300, c), cublas, 128).info == c + 1);
      CHECK(solve_mixed(spd_except_at<double>(300, c), cublas, 128).info == c + 1);
    }
}

// The faults a timing harness must not let through (issue 54), in step-2's: a variant
// that factorises on its first call only and then hands back the factor it kept (in a
// buffer of its own, beyond the reach of the restored input), and one that writes on
// its first call only (later runs leave the input, 4^e A, where L should be). Each run's
// input is fresh, 4^e A (gpu_timing.h), and every run's factor is probed: both must
// fail the probe, and the honest variant beside them pass it. (A variant is a plain
// function, so what the two remember lives here.)
namespace
{
  lab_test::FirstAnswerKept<float> *first_factor = nullptr;
  int factorisations_so_far = 0;

  const step2::Variant<float> &honest() { return step2::variants<float>().front(); }

  void replays_its_first_factor(const step2::CholeskyArgs<float> &args)
  {
    (*first_factor)(args.a, std::size_t(args.n) * args.ld, [&] { honest().factorize(args); });
    LAB_CHECK(cudaMemset(args.info, 0, sizeof(int)));
  }

  void factorises_only_once(const step2::CholeskyArgs<float> &args)
  {
    if (factorisations_so_far++ == 0)
      return honest().factorize(args);
    LAB_CHECK(cudaMemset(args.info, 0, sizeof(int)));
  }
} // namespace

TEST_CASE("planted: a variant that replays its first factor, or factorises only once, FAILs the probe of every run",
          "[gpu]")
{
  const int n = 257;
  const lab::Matrix<float> a = lab::random_spd<float>(n, 100, 7);
  step2::DeviceMatrix<float> device(a);
  step2::CusolverCholesky<float> cusolver(n, a.ld());
  const step2::Yardstick<float> potrf = [&](float *m, int *info) { cusolver.factorize(m, info); };
  lab::Cublas cublas;
  lab_test::FirstAnswerKept<float> kept;
  first_factor = &kept;
  const double tolerance = lab::probe_tolerance<float>(n);
  step2::Variant<float> planted = honest();
  const step2::Factorisation right = step2::run_variant(device, potrf, planted, 3, cublas, 64);
  REQUIRE(right.probe);
  CHECK(*right.probe <= tolerance);
  for (auto fault : {replays_its_first_factor, factorises_only_once})
    {
      planted.factorize = fault;
      const step2::Factorisation wrong = step2::run_variant(device, potrf, planted, 3, cublas, 64);
      REQUIRE(wrong.probe);
      INFO("the probe: " << *wrong.probe << ", the last run's residual: " << wrong.residual);
      CHECK_FALSE(*wrong.probe <= tolerance);
    }
}
