// vendor-configurations: the same vendor call, timed in every configuration that
// gives the same result, so that the course measures against the vendor at its
// fastest.
//
// The course's yardstick is "percent of the vendor library, measured in the same run".
// That figure is only honest if the vendor routine is called the way a competent user
// of the library would call it for the same result. The same result can often be had
// in several ways: cuSOLVER's Cholesky of a symmetric matrix reads either triangle
// (a symmetric matrix is the same in row- and column-major order, so both fill modes
// factorise the course's buffer), cuBLAS's SYRK forms HᵀH from H stored by rows or by
// columns, most routines exist in cuSOLVER's older per-type interface
// (cusolverDnSpotrf) and its 64-bit one (cusolverDnXpotrf). These are not equally
// fast: on an H200, potrf with LOWER is 1.4–1.6× faster than with UPPER, and SYRK at
// n = k = 65536 is twice as fast with trans T as with trans N. So this program times
// every configuration of every vendor routine the course uses, on the same data, at
// the course's headline sizes, and prints one table: the fastest configuration of each
// group marked `*`, the one the course uses marked `<- course`. A course choice more
// than 5% slower than the fastest at a size is a FAIL (exit code 1): the course must
// then change its call, not the table.
//
// The data are made on the GPU (a hash of the entry's position, so every run and every
// configuration sees the same numbers): symmetric matrices with 2 on the diagonal and
// off-diagonal entries in [-1/n, 1/n], diagonally dominant and so positive definite
// (eigenvalues in (1, 3)); a triangle of one is a well-conditioned triangular matrix.
// Timing as everywhere in the course: a warm-up of at least 0.2 s, the median of
// --reps runs between CUDA events, inputs that a routine overwrites restored before
// each run, outside the clock.

// @sect3{Include files}
#include <cusolver_cholesky.h>   // step-2: the course's potrf/potrs
#include <cusolver_mixed_precision.h> // step-2: the course's IRS solve
#include <variants/6_mixed_precision_solve.cuh> // step-2: variant 6, whose residual is a SYMV
#include <gpu/gram_matrix.h>                           // step-5: the vendor pipeline's SYRK
#include <triangular/cusolver_triangular.h>             // step-3: trtri, trsm, potri
#include <triangular/identity_and_singular_checks.cuh> // step-3: set_to_identity

#include <lab/checks.h>
#include <lab/cli.h>
#include <lab/cublas_gemm.h>
#include <lab/cuda_check.h>
#include <lab/cusolver.h>
#include <lab/device.h>
#include <lab/device_buffer.h>
#include <lab/format.h>
#include <lab/program.h>
#include <lab/table.h>
#include <lab/timer.h>
#include <lab/precision.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace vendor
{
  // @sect3{The test data, made on the GPU}
  //
  // A 64-bit mix of the entry's position (SplitMix64's finaliser) turned into a number
  // in [-1, 1]. `symmetric` makes (i, j) and (j, i) equal and puts 2 on the diagonal.
  __device__ double uniform_at(std::uint64_t i, std::uint64_t j, std::uint64_t seed)
  {
    std::uint64_t z = i * 0x9E3779B97F4A7C15ull + j * 0xBF58476D1CE4E5B9ull + seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return 2.0 * (z >> 11) * (1.0 / 9007199254740992.0) - 1.0;
  }

  template <typename T>
  __global__ void fill_kernel(T *a, std::int64_t rows, std::int64_t cols, bool symmetric, std::uint64_t seed)
  {
    const std::int64_t count = rows * cols;
    for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < count;
         e += std::int64_t(gridDim.x) * blockDim.x)
      {
        const std::int64_t i = e / cols, j = e % cols;
        if (!symmetric)
          a[e] = T(uniform_at(i, j, seed));
        else if (i == j)
          a[e] = T(2);
        else
          a[e] = T(uniform_at(i < j ? i : j, i < j ? j : i, seed) / double(rows));
      }
  }

  template <typename T>
  lab::DeviceBuffer<T> device_matrix(int rows, int cols, bool symmetric, std::uint64_t seed)
  {
    lab::DeviceBuffer<T> a(std::size_t(rows) * cols);
    fill_kernel<<<1024, 256>>>(a.data(), rows, cols, symmetric, seed);
    LAB_CHECK_LAUNCH();
    return a;
  }

  // @sect3{What is measured}
  //
  // One measurement: a routine in one configuration at one size. Measurements with the
  // same routine, precision, size and `shape` (e.g. the number of right-hand sides)
  // compute the same result and form a group; `flops` gives TFLOP/s.
  struct Measurement
  {
    std::string routine, precision, shape;
    int n;
    std::string configuration;
    double ms, flops;
    bool course;     // the configuration the course's wrapper uses
    std::string note = ""; // e.g. IRS's iteration count
  };

  // The command line, and the measurements so far.
  struct Settings
  {
    lab::CommonOptions options;
    std::string routine; // --routine: one family (cholesky, triangular, syrk, gemm, lu, irs), or all
    std::vector<Measurement> table;

    bool runs(const std::string &family) const { return routine.empty() || routine == family; }
  };

  // The timing the whole course uses (lab::median_gpu_milliseconds); @p reset restores
  // what the routine overwrites, outside the clock. A nonzero LAPACK info is an error:
  // the data are positive definite and invertible, so a routine that fails on them is
  // called wrongly.
  double time_it(const Settings &s, int n, const std::function<void()> &work,
                 const std::function<void()> &reset = {}, int *device_info = nullptr)
  {
    // The largest sizes take seconds per call: fewer repetitions there.
    const int reps = n >= 32768 ? std::min(s.options.reps, 3) : s.options.reps;
    const double ms = lab::median_gpu_milliseconds(n >= 65536 ? 1 : reps, work, reset);
    if (device_info)
      {
        int info = 0;
        LAB_CHECK(cudaMemcpy(&info, device_info, sizeof(int), cudaMemcpyDeviceToHost));
        if (info != 0)
          throw std::runtime_error("a vendor routine reported info = " + std::to_string(info));
      }
    return ms;
  }

  // Several configurations of one group timed in turns: each once per round, the
  // rounds repeated as lab::repeat does (a warm-up of rounds, then --reps of them), and
  // each configuration's median over the rounds. Timed one after the other instead,
  // the same call measured 6 to 11% apart at n = 8192 on an H200 (GemmEx against Dgemm,
  // the same kernel): the clock under the power limit drifts between measurements of
  // seconds. In turns, every configuration sees the same clock.
  std::vector<double> time_in_turns(const Settings &s, int n, const std::vector<std::function<void()>> &works)
  {
    const int reps = n >= 32768 ? std::min(s.options.reps, 3) : s.options.reps;
    lab::EventTimer timer;
    const std::vector<std::vector<double>> rounds = lab::repeat(reps, [&] {
      std::vector<double> round;
      for (const std::function<void()> &work : works)
        {
          timer.start();
          work();
          timer.stop();
          round.push_back(timer.milliseconds());
        }
      return round;
    });
    std::vector<double> medians;
    for (std::size_t c = 0; c < works.size(); ++c)
      {
        std::vector<double> times;
        for (const std::vector<double> &round : rounds)
          times.push_back(round[c]);
        medians.push_back(lab::median(times));
      }
    return medians;
  }

  const char *fill_name(cublasFillMode_t fill) { return fill == CUBLAS_FILL_MODE_LOWER ? "LOWER" : "UPPER"; }
  const char *op_name(cublasOperation_t op) { return op == CUBLAS_OP_N ? "N" : "T"; }

  void print_progress(const Measurement &m)
  {
    std::printf("  %-8s %-6s n=%-6d %-10s %-34s %10s ms %8.2f TFLOP/s %s\n", m.routine.c_str(),
                m.precision.c_str(), m.n, m.shape.c_str(), m.configuration.c_str(),
                lab::format_milliseconds(m.ms).c_str(), m.flops / (m.ms * 1e9), m.note.c_str());
    std::fflush(stdout);
  }

  void record(Settings &s, Measurement m)
  {
    print_progress(m);
    s.table.push_back(std::move(m));
  }

  // @sect3{cuSOLVER's per-type interface, by overloading}
  //
  // The older interface has one function per number type (S for float, D for double);
  // these overloads let one template call either.
  // clang-format off
  cusolverStatus_t potrf_size(cusolverDnHandle_t h, cublasFillMode_t f, int n, float *a, int *w) { return cusolverDnSpotrf_bufferSize(h, f, n, a, n, w); }
  cusolverStatus_t potrf_size(cusolverDnHandle_t h, cublasFillMode_t f, int n, double *a, int *w) { return cusolverDnDpotrf_bufferSize(h, f, n, a, n, w); }
  cusolverStatus_t potrf(cusolverDnHandle_t h, cublasFillMode_t f, int n, float *a, float *w, int lw, int *info) { return cusolverDnSpotrf(h, f, n, a, n, w, lw, info); }
  cusolverStatus_t potrf(cusolverDnHandle_t h, cublasFillMode_t f, int n, double *a, double *w, int lw, int *info) { return cusolverDnDpotrf(h, f, n, a, n, w, lw, info); }
  cusolverStatus_t potrs(cusolverDnHandle_t h, cublasFillMode_t f, int n, int r, const float *a, float *b, int *info) { return cusolverDnSpotrs(h, f, n, r, a, n, b, n, info); }
  cusolverStatus_t potrs(cusolverDnHandle_t h, cublasFillMode_t f, int n, int r, const double *a, double *b, int *info) { return cusolverDnDpotrs(h, f, n, r, a, n, b, n, info); }
  cusolverStatus_t potri_size(cusolverDnHandle_t h, cublasFillMode_t f, int n, float *a, int *w) { return cusolverDnSpotri_bufferSize(h, f, n, a, n, w); }
  cusolverStatus_t potri_size(cusolverDnHandle_t h, cublasFillMode_t f, int n, double *a, int *w) { return cusolverDnDpotri_bufferSize(h, f, n, a, n, w); }
  cusolverStatus_t potri(cusolverDnHandle_t h, cublasFillMode_t f, int n, float *a, float *w, int lw, int *info) { return cusolverDnSpotri(h, f, n, a, n, w, lw, info); }
  cusolverStatus_t potri(cusolverDnHandle_t h, cublasFillMode_t f, int n, double *a, double *w, int lw, int *info) { return cusolverDnDpotri(h, f, n, a, n, w, lw, info); }
  cusolverStatus_t getrf_size(cusolverDnHandle_t h, int n, float *a, int *w) { return cusolverDnSgetrf_bufferSize(h, n, n, a, n, w); }
  cusolverStatus_t getrf_size(cusolverDnHandle_t h, int n, double *a, int *w) { return cusolverDnDgetrf_bufferSize(h, n, n, a, n, w); }
  cusolverStatus_t getrf(cusolverDnHandle_t h, int n, float *a, float *w, int *p, int *info) { return cusolverDnSgetrf(h, n, n, a, n, w, p, info); }
  cusolverStatus_t getrf(cusolverDnHandle_t h, int n, double *a, double *w, int *p, int *info) { return cusolverDnDgetrf(h, n, n, a, n, w, p, info); }
  cusolverStatus_t getrs(cusolverDnHandle_t h, cublasOperation_t t, int n, int r, const float *a, const int *p, float *b, int *info) { return cusolverDnSgetrs(h, t, n, r, a, n, p, b, n, info); }
  cusolverStatus_t getrs(cusolverDnHandle_t h, cublasOperation_t t, int n, int r, const double *a, const int *p, double *b, int *info) { return cusolverDnDgetrs(h, t, n, r, a, n, p, b, n, info); }
  cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t f, cublasOperation_t t, int n, int columns, const float *a, float *b) { const float one = 1; return cublasStrsm(h, s, f, t, CUBLAS_DIAG_NON_UNIT, n, columns, &one, a, n, b, n); }
  cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t f, cublasOperation_t t, int n, int columns, const double *a, double *b) { const double one = 1; return cublasDtrsm(h, s, f, t, CUBLAS_DIAG_NON_UNIT, n, columns, &one, a, n, b, n); }
  cublasStatus_t trsv(cublasHandle_t h, cublasFillMode_t f, cublasOperation_t t, int n, const float *a, float *x) { return cublasStrsv(h, f, t, CUBLAS_DIAG_NON_UNIT, n, a, n, x, 1); }
  cublasStatus_t trsv(cublasHandle_t h, cublasFillMode_t f, cublasOperation_t t, int n, const double *a, double *x) { return cublasDtrsv(h, f, t, CUBLAS_DIAG_NON_UNIT, n, a, n, x, 1); }
  // clang-format on

  // @sect3{The Cholesky family: potrf, potrs, potri}
  //
  // potrf in both fill modes and both interfaces, on the same symmetric matrix;
  // potrs and potri on the factor it leaves (the other triangle of the buffer is a
  // well-conditioned triangle too, so every fill mode reads a valid factor). For one
  // right-hand side potrs is two triangular solves, which cuBLAS also offers on their
  // own: trsv (a triangular system with one vector) and trsm with one column, each
  // called twice, with the factor's triangle (L Lᵀ x = b: L y = b, then Lᵀ x = y).
  template <typename T>
  void cholesky_family(Settings &s, int n, lab::Cusolver &cusolver, lab::Cublas &cublas)
  {
    const char *precision = lab::precision_name<T>();
    const lab::DeviceBuffer<T> pristine = device_matrix<T>(n, n, true, 1);
    lab::DeviceBuffer<T> a(pristine.count());
    lab::DeviceBuffer<int> info(1);
    const auto restore = [&] { a.copy_from_device(pristine); };
    const double cholesky_flops = double(n) * n * n / 3;
    for (const cublasFillMode_t fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
      {
        const bool course_fill = fill == step2::CusolverCholesky<T>::fill_mode;
        std::size_t device_bytes = 0, host_bytes = 0;
        LAB_CHECK(cusolverDnXpotrf_bufferSize(cusolver.get(), cusolver.params(), fill, n, lab::cuda_data_type<T>,
                                              a.data(), n, lab::cuda_data_type<T>, &device_bytes, &host_bytes));
        lab::DeviceBuffer<unsigned char> device_work(device_bytes);
        std::vector<unsigned char> host_work(host_bytes);
        const double x_ms = time_it(
          s, n,
          [&] {
            LAB_CHECK(cusolverDnXpotrf(cusolver.get(), cusolver.params(), fill, n, lab::cuda_data_type<T>, a.data(),
                                       n, lab::cuda_data_type<T>, device_work.data(), device_bytes,
                                       host_work.data(), host_bytes, info.data()));
          },
          restore, info.data());
        record(s, {"potrf", precision, "", n, std::string(fill_name(fill)) + ", 64-bit (Xpotrf)", x_ms,
                   cholesky_flops, course_fill && step2::CusolverCholesky<T>::uses_64_bit_api});
        int elements = 0;
        LAB_CHECK(potrf_size(cusolver.get(), fill, n, a.data(), &elements));
        lab::DeviceBuffer<T> work(std::max(elements, 1));
        const double legacy_ms =
          time_it(s, n, [&] { LAB_CHECK(potrf(cusolver.get(), fill, n, a.data(), work.data(), elements, info.data())); },
                  restore, info.data());
        record(s, {"potrf", precision, "", n, std::string(fill_name(fill)) + ", per-type (potrf)", legacy_ms,
                   cholesky_flops, course_fill && !step2::CusolverCholesky<T>::uses_64_bit_api});
      }

    // potrs with a factor given: one right-hand side (a solve, as in step-2's variant 6
    // and step-3) and 256 (step-3's block of right-hand sides). The factor is
    // `pristine` itself: its triangles are both well-conditioned triangular matrices.
    // (After cuSOLVER's own potrf the factor's triangle is fixed: that pair is timed
    // below, as `posv`.)
    using Factor = typename step2::CusolverCholesky<T>::Factor;
    const cublasFillMode_t course_solve_fill = step2::CusolverCholesky<T>::fill_mode_of(Factor::by_rows);
    for (const int nrhs : {1, 256})
      {
        if (nrhs > n)
          continue;
        const lab::DeviceBuffer<T> b0 = device_matrix<T>(n, nrhs, false, 2);
        lab::DeviceBuffer<T> b(b0.count());
        const auto restore_b = [&] { b.copy_from_device(b0); };
        const std::string shape = "nrhs=" + std::to_string(nrhs);
        const double flops = 2.0 * n * n * nrhs;
        for (const cublasFillMode_t fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
          {
            const bool course_fill = fill == course_solve_fill;
            const double x_ms = time_it(
              s, n,
              [&] {
                LAB_CHECK(cusolverDnXpotrs(cusolver.get(), cusolver.params(), fill, n, nrhs, lab::cuda_data_type<T>,
                                           pristine.data(), n, lab::cuda_data_type<T>, b.data(), n, info.data()));
              },
              restore_b, info.data());
            record(s, {"potrs", precision, shape, n, std::string(fill_name(fill)) + ", 64-bit (Xpotrs)", x_ms, flops,
                       course_fill && step2::CusolverCholesky<T>::uses_64_bit_api});
            const double legacy_ms = time_it(
              s, n, [&] { LAB_CHECK(potrs(cusolver.get(), fill, n, nrhs, pristine.data(), b.data(), info.data())); },
              restore_b, info.data());
            record(s, {"potrs", precision, shape, n, std::string(fill_name(fill)) + ", per-type (potrs)", legacy_ms,
                       flops, course_fill && !step2::CusolverCholesky<T>::uses_64_bit_api});
          }
        if (nrhs != 1)
          continue;
        // The same solve by cuBLAS: with LOWER the factor is L (solve with it, then with
        // its transpose), with UPPER it is Lᵀ (the other way round).
        cublas.bind(nullptr);
        for (const cublasFillMode_t fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
          {
            const cublasOperation_t first = fill == CUBLAS_FILL_MODE_LOWER ? CUBLAS_OP_N : CUBLAS_OP_T;
            const cublasOperation_t second = fill == CUBLAS_FILL_MODE_LOWER ? CUBLAS_OP_T : CUBLAS_OP_N;
            const std::string order = std::string(op_name(first)) + " then " + op_name(second);
            // One of the two routines, called with op = first, then second.
            const auto time_pair = [&](const std::string &routine, const auto &solve_with) {
              const double ms = time_it(
                s, n,
                [&] {
                  solve_with(first);
                  solve_with(second);
                },
                restore_b);
              record(s, {"potrs", precision, shape, n,
                         std::string(fill_name(fill)) + ", 2 cuBLAS " + routine + " (" + order + ")", ms, flops, false});
            };
            time_pair("trsv", [&](cublasOperation_t op) {
              LAB_CHECK(trsv(cublas.get(), fill, op, n, pristine.data(), b.data()));
            });
            time_pair("trsm", [&](cublasOperation_t op) {
              LAB_CHECK(trsm(cublas.get(), CUBLAS_SIDE_LEFT, fill, op, n, 1, pristine.data(), b.data()));
            });
          }
      }

    // potri (per-type interface only): A⁻¹ from the factor, in place. Its cost grows
    // fast and the course uses it up to 16384 only (step-3).
    for (const cublasFillMode_t fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
      {
        if (n > 16384)
          break;
        int elements = 0;
        LAB_CHECK(potri_size(cusolver.get(), fill, n, a.data(), &elements));
        lab::DeviceBuffer<T> work(std::max(elements, 1));
        const double ms =
          time_it(s, n, [&] { LAB_CHECK(potri(cusolver.get(), fill, n, a.data(), work.data(), elements, info.data())); },
                  restore, info.data());
        record(s, {"potri", precision, "", n, std::string(fill_name(fill)) + ", per-type (potri)", ms,
                   2.0 * n * n * n / 3, fill == step3::VendorTriangular<T>::potri_fill_mode});
      }
  }

  // @sect3{The Cholesky solve: potrf, then potrs on its factor}
  //
  // Solving A x = b with cuSOLVER alone (step-2's yardstick for variant 6, step-5's
  // vendor pipeline): the factor's triangle is the one potrf wrote, so the pair is
  // timed as a pair, in both fill modes.
  template <typename T>
  void cholesky_solve_family(Settings &s, int n, lab::Cusolver &cusolver)
  {
    const lab::DeviceBuffer<T> pristine = device_matrix<T>(n, n, true, 10), b = device_matrix<T>(n, 1, false, 11);
    lab::DeviceBuffer<T> a(pristine.count()), x(n);
    lab::DeviceBuffer<int> info(1);
    for (const cublasFillMode_t fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
      {
        std::size_t device_bytes = 0, host_bytes = 0;
        LAB_CHECK(cusolverDnXpotrf_bufferSize(cusolver.get(), cusolver.params(), fill, n, lab::cuda_data_type<T>,
                                              a.data(), n, lab::cuda_data_type<T>, &device_bytes, &host_bytes));
        lab::DeviceBuffer<unsigned char> device_work(device_bytes);
        std::vector<unsigned char> host_work(host_bytes);
        const double ms = time_it(
          s, n,
          [&] {
            LAB_CHECK(cusolverDnXpotrf(cusolver.get(), cusolver.params(), fill, n, lab::cuda_data_type<T>, a.data(),
                                       n, lab::cuda_data_type<T>, device_work.data(), device_bytes,
                                       host_work.data(), host_bytes, info.data()));
            LAB_CHECK(cusolverDnXpotrs(cusolver.get(), cusolver.params(), fill, n, 1, lab::cuda_data_type<T>,
                                       a.data(), n, lab::cuda_data_type<T>, x.data(), n, info.data()));
          },
          [&] {
            a.copy_from_device(pristine);
            x.copy_from_device(b);
          },
          info.data());
        record(s, {"posv", lab::precision_name<T>(), "nrhs=1", n, std::string("potrf + potrs, ") + fill_name(fill), ms,
                   double(n) * n * n / 3, fill == step2::CusolverCholesky<T>::fill_mode});
      }
  }

  // @sect3{The triangular inverse: trtri and trsm against the identity}
  //
  // trtri exists in the 64-bit interface only. trsm(A, I) gives the inverse of a
  // triangular matrix in eight ways (side, fill mode, transposition): solving from
  // the left or the right, with the matrix or its transpose. Each is the same result in
  // another layout, so the course may use the fastest, converting outside the clock.
  template <typename T>
  void triangular_family(Settings &s, int n, lab::Cusolver &cusolver, lab::Cublas &cublas)
  {
    const char *precision = lab::precision_name<T>();
    const lab::DeviceBuffer<T> pristine = device_matrix<T>(n, n, true, 3);
    lab::DeviceBuffer<T> a(pristine.count());
    lab::DeviceBuffer<int> info(1);
    const auto restore = [&] { a.copy_from_device(pristine); };
    const double inverse_flops = double(n) * n * n / 3;
    using Vendor = step3::VendorTriangular<T>;
    for (const cublasFillMode_t fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
      {
        std::size_t device_bytes = 0, host_bytes = 0;
        LAB_CHECK(cusolverDnXtrtri_bufferSize(cusolver.get(), fill, CUBLAS_DIAG_NON_UNIT, n, lab::cuda_data_type<T>,
                                              a.data(), n, &device_bytes, &host_bytes));
        lab::DeviceBuffer<unsigned char> device_work(device_bytes);
        std::vector<unsigned char> host_work(host_bytes);
        const double ms = time_it(
          s, n,
          [&] {
            LAB_CHECK(cusolverDnXtrtri(cusolver.get(), fill, CUBLAS_DIAG_NON_UNIT, n, lab::cuda_data_type<T>, a.data(),
                                       n, device_work.data(), device_bytes, host_work.data(), host_bytes,
                                       info.data()));
          },
          restore, info.data());
        record(s, {"trtri", precision, "", n, std::string(fill_name(fill)) + ", 64-bit (Xtrtri)", ms, inverse_flops,
                   fill == Vendor::trtri_fill_mode});
      }

    // trsm(A, I): B = I overwritten by the inverse; n³ flops counted as the inverse's
    // n³/3, since that is the work it replaces.
    lab::DeviceBuffer<T> b(pristine.count());
    const auto identity = [&] { step3::set_to_identity(b.data(), n, n, nullptr); };
    for (const cublasSideMode_t side : {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT})
      for (const cublasFillMode_t fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
        for (const cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_T})
          {
            cublas.bind(nullptr);
            const double ms =
              time_it(s, n, [&] { LAB_CHECK(trsm(cublas.get(), side, fill, op, n, n, pristine.data(), b.data())); },
                      identity);
            const std::string configuration = std::string(side == CUBLAS_SIDE_LEFT ? "LEFT" : "RIGHT") + ", " +
                                              fill_name(fill) + ", " + op_name(op);
            record(s, {"trsm(A,I)", precision, "", n, configuration, ms, inverse_flops,
                       side == Vendor::trsm_side && fill == Vendor::trsm_fill_mode && op == Vendor::trsm_operation});
          }
  }

  // @sect3{SYRK: C = HᵀH}
  //
  // The Gram matrix of step-5's normal equations, n = k. With H stored by columns,
  // trans T computes HᵀH; with H stored by rows (the column-major view is Hᵀ), trans
  // N computes the same. Either fill mode gives one triangle of the symmetric result.
  template <typename T>
  void syrk_family(Settings &s, int n, lab::Cublas &cublas)
  {
    const char *precision = lab::precision_name<T>();
    const lab::DeviceBuffer<T> h = device_matrix<T>(n, n, false, 4);
    lab::DeviceBuffer<T> c(h.count());
    for (const cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_T})
      for (const cublasFillMode_t fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
        {
          cublas.bind(nullptr);
          const auto syrk = [&] { LAB_CHECK(step5::square_syrk(cublas.get(), fill, op, n, h.data(), c.data())); };
          const double ms = time_it(s, n, syrk, [&] { c.poison(); });
          record(s, {"syrk", precision, "n=k", n, std::string("trans ") + op_name(op) + ", " + fill_name(fill), ms,
                     double(n) * n * n,
                     op == step5::vendor_syrk_operation(n) && fill == step5::vendor_syrk_fill_mode});
        }
  }

  // @sect3{GEMM: the product behind every step}
  //
  // The course's lab::cublas_gemm calls cublasGemmEx (float: TF32 off, or TF32 on;
  // double: FP64). Each transposition the steps use is timed through it and
  // through the per-type cublas<t>gemm, to show that the interface costs nothing.
  //
  // cuBLAS can also emulate both precisions on faster units: FP32 by products of BF16
  // pieces (CUBLAS_FP32_EMULATED_BF16X9_MATH) and FP64 in fixed point on the integer
  // tensor cores (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH, the idea of step-4's kernel 20),
  // each under two strategies: PERFORMANT (the default: emulate where cuBLAS judges it
  // faster) and EAGER (emulate whenever it can). They promise the native routine's
  // accuracy, so they are other ways to the same result and join its group: where a
  // toolkit makes one of them the fastest, the course's call FAILs here and must change.
  std::vector<std::pair<cublasEmulationStrategy_t, const char *>> emulation_strategies()
  {
    return {{CUBLAS_EMULATION_STRATEGY_PERFORMANT, "PERFORMANT"}, {CUBLAS_EMULATION_STRATEGY_EAGER, "EAGER"}};
  }

  template <typename T>
  void emulated_gemm(cublasHandle_t handle, cublasEmulationStrategy_t strategy, cublasOperation_t op_a,
                     cublasOperation_t op_b, int n, const T *a, const T *b, T *c)
  {
    const T one = 1, zero = 0;
    LAB_CHECK(cublasSetMathMode(handle, sizeof(T) == 4 ? CUBLAS_FP32_EMULATED_BF16X9_MATH
                                                       : CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH));
    LAB_CHECK(cublasSetEmulationStrategy(handle, strategy));
    if constexpr (sizeof(T) == 4)
      LAB_CHECK(cublasSgemm(handle, op_a, op_b, n, n, n, &one, a, n, b, n, &zero, c, n));
    else
      LAB_CHECK(cublasDgemm(handle, op_a, op_b, n, n, n, &one, a, n, b, n, &zero, c, n));
    LAB_CHECK(cublasSetEmulationStrategy(handle, CUBLAS_EMULATION_STRATEGY_DEFAULT));
    LAB_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  }
  template <typename T>
  void gemm_family(Settings &s, int n, lab::Cublas &cublas)
  {
    const char *precision = lab::precision_name<T>();
    const lab::DeviceBuffer<T> a = device_matrix<T>(n, n, false, 5), b = device_matrix<T>(n, n, false, 6);
    lab::DeviceBuffer<T> c(a.count());
    const T one = 1, zero = 0;
    for (const cublasOperation_t op_a : {CUBLAS_OP_N, CUBLAS_OP_T})
      for (const cublasOperation_t op_b : {CUBLAS_OP_N, CUBLAS_OP_T})
        {
          const std::string shape = std::string(op_name(op_a)) + op_name(op_b);
          // A group's configurations are gathered, then timed in turns (time_in_turns).
          struct Configuration
          {
            std::string precision, name;
            bool course;
            std::function<void()> product;
          };
          std::vector<Configuration> group;
          const auto measure = [&](const std::string &configuration, bool course,
                                   const std::function<void()> &product) {
            group.push_back({precision, configuration, course, product});
          };
          const auto time_group = [&] {
            std::vector<std::function<void()>> products;
            for (const Configuration &c : group)
              products.push_back(c.product);
            cublas.bind(nullptr);
            const std::vector<double> ms = time_in_turns(s, n, products);
            for (std::size_t i = 0; i < group.size(); ++i)
              record(s, {"gemm", group[i].precision, shape, n, group[i].name, ms[i], 2.0 * n * n * n, group[i].course});
            group.clear();
          };
          if constexpr (sizeof(T) == 4)
            {
              for (const bool tf32 : {false, true})
                {
                  // TF32 rounds the inputs: another result, so another group.
                  precision = tf32 ? "tf32" : "float";
                  const std::string math = tf32 ? "TF32" : "FP32";
                  measure("GemmEx, " + math, true, [&] {
                    LAB_CHECK(cublasGemmEx(cublas.get(), op_a, op_b, n, n, n, &one, a.data(), CUDA_R_32F, n, b.data(),
                                           CUDA_R_32F, n, &zero, c.data(), CUDA_R_32F, n,
                                           tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,
                                           CUBLAS_GEMM_DEFAULT));
                  });
                  measure("Sgemm, " + math, false, [&] {
                    LAB_CHECK(cublasSetMathMode(cublas.get(), tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
                    LAB_CHECK(cublasSgemm(cublas.get(), op_a, op_b, n, n, n, &one, a.data(), n, b.data(), n, &zero,
                                          c.data(), n));
                    LAB_CHECK(cublasSetMathMode(cublas.get(), CUBLAS_DEFAULT_MATH));
                  });
                  if (!tf32)
                    for (const auto &strategy : emulation_strategies())
                      measure(std::string("Sgemm, BF16x9 emulation, ") + strategy.second, false, [&, strategy] {
                        emulated_gemm<T>(cublas.get(), strategy.first, op_a, op_b, n, a.data(), b.data(), c.data());
                      });
                  time_group();
                }
              precision = "float";
            }
          else
            {
              measure("Dgemm", false, [&] {
                LAB_CHECK(
                  cublasDgemm(cublas.get(), op_a, op_b, n, n, n, &one, a.data(), n, b.data(), n, &zero, c.data(), n));
              });
              measure("GemmEx, FP64", true, [&] {
                LAB_CHECK(cublasGemmEx(cublas.get(), op_a, op_b, n, n, n, &one, a.data(), CUDA_R_64F, n, b.data(),
                                       CUDA_R_64F, n, &zero, c.data(), CUDA_R_64F, n, CUBLAS_COMPUTE_64F,
                                       CUBLAS_GEMM_DEFAULT));
              });
              for (const auto &strategy : emulation_strategies())
                measure(std::string("Dgemm, fixed-point emulation, ") + strategy.second, false, [&, strategy] {
                  emulated_gemm<T>(cublas.get(), strategy.first, op_a, op_b, n, a.data(), b.data(), c.data());
                });
              time_group();
            }
        }
  }

  // @sect3{SYMV: variant 6's residual}
  //
  // Each refinement round of variant 6 computes r = b - A x with SYMV (SSYMV in float,
  // DSYMV in double), from one triangle of A. The matrix here is stored whole, so both
  // fill modes give the same r; the course's is the one variant 6 takes for a matrix
  // stored whole, as step-2 stores it (MixedPrecisionSolve::residual_fill_mode; step-5,
  // which has only the lower triangle by rows, must take UPPER).
  template <typename T>
  void symv_family(Settings &s, int n, lab::Cublas &cublas)
  {
    const lab::DeviceBuffer<T> a = device_matrix<T>(n, n, true, 10);
    const lab::DeviceBuffer<T> x = device_matrix<T>(n, 1, false, 11);
    lab::DeviceBuffer<T> r(n);
    const T one = 1, minus_one = -1;
    for (const cublasFillMode_t fill : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
      {
        cublas.bind(nullptr);
        const double ms = time_it(s, n, [&] {
          LAB_CHECK(step2::symv(cublas.get(), fill, n, &minus_one, a.data(), n, x.data(), &one, r.data()));
        });
        record(s, {"symv", lab::precision_name<T>(), "nrhs=1", n, fill_name(fill), ms, 2.0 * n * n,
                   fill == step2::MixedPrecisionSolve<T>::residual_fill_mode(
                             step2::MixedPrecisionSolve<T>::Stored::whole)});
      }
  }
} // namespace vendor

namespace vendor
{
  // @sect3{LU: getrf and getrs}
  //
  // Step-3 compares Gauss–Jordan with cuSOLVER's LU: getrf, then getrs against the
  // identity (per-type, N: step3::CusolverGeneralInverse). Both interfaces; getrs in both transpositions (a row-major matrix is the
  // transpose of the column-major one, so either solves the course's system).
  template <typename T>
  void lu_family(Settings &s, int n, lab::Cusolver &cusolver)
  {
    const char *precision = lab::precision_name<T>();
    const lab::DeviceBuffer<T> pristine = device_matrix<T>(n, n, true, 7);
    lab::DeviceBuffer<T> a(pristine.count()), b(pristine.count());
    lab::DeviceBuffer<int> info(1), pivots(n);
    lab::DeviceBuffer<std::int64_t> pivots64(n);
    const auto restore = [&] { a.copy_from_device(pristine); };
    const double lu_flops = 2.0 * n * n * n / 3;
    std::size_t device_bytes = 0, host_bytes = 0;
    LAB_CHECK(cusolverDnXgetrf_bufferSize(cusolver.get(), cusolver.params(), n, n, lab::cuda_data_type<T>, a.data(), n,
                                          lab::cuda_data_type<T>, &device_bytes, &host_bytes));
    lab::DeviceBuffer<unsigned char> device_work(device_bytes);
    std::vector<unsigned char> host_work(host_bytes);
    const auto getrf_64 = [&] {
      LAB_CHECK(cusolverDnXgetrf(cusolver.get(), cusolver.params(), n, n, lab::cuda_data_type<T>, a.data(), n,
                                 pivots64.data(), lab::cuda_data_type<T>, device_work.data(), device_bytes,
                                 host_work.data(), host_bytes, info.data()));
    };
    record(s, {"getrf", precision, "", n, "64-bit (Xgetrf)", time_it(s, n, getrf_64, restore, info.data()), lu_flops,
               false});
    int elements = 0;
    LAB_CHECK(getrf_size(cusolver.get(), n, a.data(), &elements));
    lab::DeviceBuffer<T> work(std::max(elements, 1));
    const auto getrf_legacy = [&] { LAB_CHECK(getrf(cusolver.get(), n, a.data(), work.data(), pivots.data(), info.data())); };
    record(s, {"getrf", precision, "", n, "per-type (getrf)", time_it(s, n, getrf_legacy, restore, info.data()),
               lu_flops, true});

    // getrs(I) on the factors each interface left: n right-hand sides, 2n³ flops.
    const auto restore_b = [&] { step3::set_to_identity(b.data(), n, n, nullptr); };
    restore();
    getrf_64();
    lab::DeviceBuffer<T> factor64(a.count());
    factor64.copy_from_device(a);
    restore();
    getrf_legacy();
    for (const cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_T})
      {
        const double x_ms = time_it(
          s, n,
          [&] {
            LAB_CHECK(cusolverDnXgetrs(cusolver.get(), cusolver.params(), op, n, n, lab::cuda_data_type<T>,
                                       factor64.data(), n, pivots64.data(), lab::cuda_data_type<T>, b.data(), n,
                                       info.data()));
          },
          restore_b, info.data());
        record(s, {"getrs", precision, "nrhs=n", n, std::string(op_name(op)) + ", 64-bit (Xgetrs)", x_ms,
                   2.0 * n * n * n, false});
        const double legacy_ms =
          time_it(s, n, [&] { LAB_CHECK(getrs(cusolver.get(), op, n, n, a.data(), pivots.data(), b.data(), info.data())); },
                  restore_b, info.data());
        record(s, {"getrs", precision, "nrhs=n", n, std::string(op_name(op)) + ", per-type (getrs)", legacy_ms,
                   2.0 * n * n * n, op == CUBLAS_OP_N});
      }
  }

  // @sect3{The vendor's mixed-precision solver}
  //
  // cusolverDnIRSXgesv: LU in TF32, refined to FP32 accuracy (its default tolerance,
  // LAPACK's: ‖r‖∞ < √n ‖x‖∞ ‖A‖∞ ε), falling back to an FP32 LU if it does not
  // converge in 50 iterations. Each refinement solver it offers is timed, through the
  // course's wrapper (step2::CusolverMixedPrecision); a negative iteration count says it
  // fell back. (The Cholesky solve in FP32 beside it, for scale, is the `posv` group.)
  void mixed_precision_family(Settings &s, int n)
  {
    const lab::DeviceBuffer<float> pristine = device_matrix<float>(n, n, true, 8);
    const lab::DeviceBuffer<float> b = device_matrix<float>(n, 1, false, 9);
    lab::DeviceBuffer<float> a(pristine.count()), x(n);
    lab::DeviceBuffer<int> info(1);
    const auto restore = [&] {
      a.copy_from_device(pristine);
      x.poison();
    };
    const double lu_flops = 2.0 * n * n * n / 3;
    for (const auto &[refinement, name] : step2::irs_refinements)
      {
        step2::CusolverMixedPrecision<float> irs(n, refinement);
        int iterations = 0;
        const double ms =
          time_it(s, n, [&] { iterations = irs.solve(a.data(), b.data(), x.data(), info.data()); }, restore,
                  info.data());
        record(s, {"IRS gesv", "tf32", "nrhs=1", n, std::string("TF32 LU, ") + name + " refinement", ms, lu_flops,
                   refinement == step2::CusolverMixedPrecision<float>::default_refinement,
                   std::to_string(iterations) + (iterations < 0 ? " iterations (fell back to FP32)" : " iterations")});
      }
  }
} // namespace vendor

namespace vendor
{
  // @sect3{The table}
  //
  // Grouped by routine, precision, shape and size; in each group every configuration
  // with its time, TFLOP/s and how many times slower than the group's fastest (`*`).
  // The check: the course's configuration within 5% of the fastest, at the sizes where
  // the course quotes percent-of-vendor figures (n >= 4096; below, launch latency and
  // noise decide, and the line is for information).
  constexpr double allowed_slowdown = 1.05;
  constexpr int checked_from = 4096;

  std::string group_of(const Measurement &m)
  {
    return m.routine + "|" + m.precision + "|" + m.shape + "|" + std::to_string(m.n);
  }

  void print_table(const Settings &s, std::FILE *out, lab::Checks &checks)
  {
    std::map<std::string, double> fastest;
    for (const Measurement &m : s.table)
      {
        auto [it, inserted] = fastest.emplace(group_of(m), m.ms);
        if (!inserted)
          it->second = std::min(it->second, m.ms);
      }
    std::fprintf(out, "%-9s %-6s %-7s %6s  %-40s %10s %8s %8s\n", "# routine", "prec.", "shape", "n",
                 "configuration", "ms", "TFLOP/s", "/fastest");
    std::string previous;
    for (const Measurement &m : s.table)
      {
        const std::string group = group_of(m);
        if (group != previous && !previous.empty())
          std::fprintf(out, "\n");
        previous = group;
        const double ratio = m.ms / fastest[group];
        std::fprintf(out, "%-9s %-6s %-7s %6d  %-40s %10s %8.2f %7.2f%s%s %s\n", m.routine.c_str(),
                     m.precision.c_str(), m.shape.empty() ? "-" : m.shape.c_str(), m.n, m.configuration.c_str(),
                     lab::format_milliseconds(m.ms).c_str(), m.flops / (m.ms * 1e9), ratio, ratio == 1 ? " *" : "  ",
                     m.course ? "  <- course" : "", m.note.c_str());
        if (out == stdout && m.course && m.n >= checked_from)
          checks.at_most(m.routine + " " + m.precision + " " + m.shape + " n=" + std::to_string(m.n) + " " +
                           m.configuration + ": times the fastest",
                         ratio, allowed_slowdown);
      }
  }

  // @sect3{The sizes}
  //
  // The course's headline sizes for each family (--quick: 256 and 1024, for the test;
  // --sizes: those sizes for every family). 65536 is step-5's n at 256² pixels.
  struct Sweep
  {
    std::vector<int> cholesky_float, cholesky_double, triangular, syrk_float, syrk_double, gemm, lu, irs;
  };

  Sweep sweep_for(const lab::CommonOptions &o)
  {
    if (o.quick)
      return {{256, 1024}, {256, 1024}, {256, 1024}, {256, 1024}, {256, 1024}, {256, 1024}, {256, 1024}, {256, 1024}};
    if (!o.sizes.empty())
      return {o.sizes, o.sizes, o.sizes, o.sizes, o.sizes, o.sizes, o.sizes, o.sizes};
    return {{4096, 8192, 16384, 32768, 65536},
            {4096, 8192, 16384},
            {4096, 8192, 16384},
            {4096, 16384, 32768, 65536},
            {4096, 16384},
            {4096, 8192},
            {4096, 8192},
            {8192, 16384, 32768}};
  }
} // namespace vendor

// @sect3{The main function}
int main(int argc, char **argv)
{
  using namespace vendor;
  Settings settings;
  CLI::App app{"vendor-configurations: every configuration of the vendor routines the course times, "
               "on the same data, to show that the course calls each at its fastest",
               "vendor-configurations"};
  lab::add_common_options(app, settings.options);
  app.add_option("--routine", settings.routine, "Only one family: cholesky, triangular, syrk, gemm, lu or irs")
    ->check(CLI::IsMember({"cholesky", "triangular", "syrk", "gemm", "lu", "irs"}));
  if (const auto exit_code = lab::parse_command_line(app, argc, argv))
    return *exit_code;

  return lab::run_program("vendor-configurations", [&] {
    std::printf("vendor-configurations: the same vendor call in every configuration that gives the same result\n");
    const lab::DeviceInfo device = lab::select_device(settings.options.cpu_only);
    if (!device.present)
      {
        std::printf("no GPU: nothing to measure\n");
        return 0;
      }
    lab::prepare_output_folder(settings.options.out);
    const Sweep sweep = sweep_for(settings.options);
    lab::Cusolver cusolver;
    lab::Cublas cublas;
    std::string family;
    const auto each = [&](const std::vector<int> &sizes, const std::function<void(int)> &measure) {
      if (settings.runs(family))
        for (const int n : sizes)
          measure(n);
    };
    // Each family's sizes, under its name (--routine).
    const auto in = [&](const char *name) { family = name; };
    if (settings.options.wants_float())
      {
        in("cholesky");
        each(sweep.cholesky_float, [&](int n) { cholesky_family<float>(settings, n, cusolver, cublas); });
        in("triangular");
        each(sweep.triangular, [&](int n) { triangular_family<float>(settings, n, cusolver, cublas); });
        in("syrk");
        each(sweep.syrk_float, [&](int n) { syrk_family<float>(settings, n, cublas); });
        in("gemm");
        each(sweep.gemm, [&](int n) { gemm_family<float>(settings, n, cublas); });
        in("lu");
        each(sweep.lu, [&](int n) { lu_family<float>(settings, n, cusolver); });
        in("irs");
        each(sweep.irs, [&](int n) {
          cholesky_solve_family<float>(settings, n, cusolver);
          mixed_precision_family(settings, n);
          symv_family<float>(settings, n, cublas);
        });
      }
    if (settings.options.wants_double())
      {
        in("cholesky");
        each(sweep.cholesky_double, [&](int n) {
          cholesky_family<double>(settings, n, cusolver, cublas);
          cholesky_solve_family<double>(settings, n, cusolver);
        });
        in("triangular");
        each(sweep.triangular, [&](int n) { triangular_family<double>(settings, n, cusolver, cublas); });
        in("syrk");
        each(sweep.syrk_double, [&](int n) { syrk_family<double>(settings, n, cublas); });
        in("gemm");
        each(sweep.gemm, [&](int n) { gemm_family<double>(settings, n, cublas); });
        in("lu");
        each(sweep.lu, [&](int n) { lu_family<double>(settings, n, cusolver); });
        in("irs");
        each(sweep.irs, [&](int n) { symv_family<double>(settings, n, cublas); });
      }

    lab::Checks checks;
    std::printf("\n");
    print_table(settings, stdout, checks);
    const std::string path = settings.options.out + "/vendor_configurations.txt";
    std::FILE *file = std::fopen(path.c_str(), "w");
    if (!file)
      throw std::runtime_error("cannot write " + path);
    std::fprintf(file, "# vendor-configurations, revision %s, %s\n# * the fastest configuration of each group; "
                 "<- course: the one the course calls\n",
                 lab::git_revision(), lab::describe(device).c_str());
    print_table(settings, file, checks);
    std::fclose(file);
    std::printf("\ntable written: %s\n", path.c_str());
    checks.print_summary(std::cout);
    return checks.exit_code();
  });
}
