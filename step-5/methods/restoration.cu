// Every method on one degraded image (see restoration.h).
#include "methods/restoration.h"

#include "methods/band_pipeline.h"
#include "methods/conjugate_gradients.h"
#include "methods/dense_pipeline.h"
#include "methods/fft_filter.h"
#include "methods/gauss_seidel.h"
#include "methods/method_runs.h"
#include "methods/sparse_cholesky.h"
#include "model/blur_model.h"
#include "report/checks.h"

#include <gemm_kernels.h> // step-4: step4::gemm, the course's product
#include <cusolver_mixed_precision.h>             // step-2: cuSOLVER's IRS solver
#include <kernels/20_ozaki_int8.cuh>            // step-4: kernel 20's scratch
#include <kernels/tma_operands.cuh>             // step-4: the TF32 kernels' scratch
#include <variants/6_mixed_precision_solve.cuh> // step-2: the mixed-precision solve

#include <lab/device_buffer.h>
#include <lab/fresh_inputs.h>
#include <lab/timer.h>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace step5
{
  // Single precision stops at 10⁻⁵ (its rounding makes the true residual stall not
  // far below), double at 10⁻¹⁰.
  template <>
  double iterative_tolerance<float>()
  {
    return 1e-5;
  }
  template <>
  double iterative_tolerance<double>()
  {
    return 1e-10;
  }

  // @sect3{TF32 and a refinement}
  //
  // The dense pipeline on the tensor cores (float only): A = HᵀH + λI and b = Hᵀg by
  // step-4's TF32 product, then step-2's mixed-precision solve (variant 6) with
  // step-4's TF32 product for its panels and its trailing update; its iterative
  // refinement, residuals in FP32, brings f to FP32 accuracy for the A it
  // was given. That A carries TF32's rounding: each product of HᵀH rounds its
  // inputs to 11 significant bits (unit roundoff u = 2⁻¹¹), so its entries are off by
  // up to 2u relative to |H|ᵀ|H|, whose norm the bound ‖p‖₁² + λ of η (report/checks.h)
  // covers, and b likewise: η ≲ 4u against the exact equations. The check allows
  // 10u. The solver keeps its own copy of A to factorise, and the TF32 products want
  // scratch: 2n² more numbers (tf32_pipeline_bytes) beside H and A, so the method
  // runs on a pipeline of its own, after the others have freed theirs, and gives the
  // scratch back when it is done.
  constexpr double tf32_tolerance = 10 * 0x1p-11;

  double tf32_pipeline_bytes(int n)
  {
    // The solver's copy of A, its factorisation's workspace (a panel and two blocks of
    // panel_width²) and three vectors; and the scratch of step-4's TF32 kernels (16
    // and 18, tma_operands.cuh): their passes rewrite an operand that is not laid out
    // as the kernel reads it, which for the largest product of gram_matrix's recursion
    // (n/2 × n/2, inner dimension n: op(A) = Hᵀ, and for kernel 16 also op(B) = H) and
    // for b = Hᵀg (H transposed) is at most n² numbers and a few.
    const double panel_width = step2::default_panel_width<float>();
    const double solver = double(n) * (n + panel_width + 3) + 2 * panel_width * panel_width;
    return (solver + double(n) * (n + 4)) * sizeof(float);
  }

  MethodResult run_tf32_method(DeviceProblem<float> &problem, DensePipeline<float> &pipeline,
                               const RestoreOptions &options, lab::Cublas &cublas)
  {
    MethodResult result =
      blank_result("dense_tf32_refined", "dense, step-4's TF32 products, refined in FP32", MethodKind::pipeline);
    const int n = problem.rows * problem.cols, panel_width = step2::default_panel_width<float>();
    step2::MixedPrecisionSolve<float> solver(n, n, panel_width, cublas,
                                             step2::MixedPrecisionSolve<float>::Stored::lower_triangle,
                                             step4::gemm_tf32);
    const float lambda = static_cast<float>(options.lambda);
    const auto solve_system = [&](const float *a, const float *b, float *f) { return solver.solve(a, b, f); };
    const StageTimes times = median_times(options.dense_reps, [&] {
      problem.start_run();
      const StageTimes run = pipeline.run_with_solver(problem.psf, lambda, problem.g.data(), step4::gemm_tf32,
                                                      solve_system, problem.f.data());
      problem.end_run();
      result.worst_run_backward_error = problem.worse_run(result.worst_run_backward_error, problem.f);
      return run;
    });
    result.description += ", " + std::to_string(solver.rounds()) + " rounds";
    result.tolerance = tf32_tolerance;
    return pipeline_result(std::move(result), times, problem, problem.f, false);
  }

  // The vendor's answer to the TF32 pipeline, on the same pipeline after it: cuSOLVER's
  // mixed-precision solver (cusolverDnIRSXgesv: LU in TF32, refined to FP32 accuracy,
  // step-2's CusolverMixedPrecision) on the A and b of the vendor's own pipeline. Its
  // workspace holds the TF32 factors, n² numbers and a few, no more than the TF32
  // pipeline's solver and scratch that it replaces. Checked as any FP32 solve.
  MethodResult run_irs_method(DeviceProblem<float> &problem, DensePipeline<float> &pipeline,
                              const RestoreOptions &options, lab::Cublas &cublas)
  {
    MethodResult result =
      blank_result("dense_cusolver_irs", "dense, cuSOLVER's IRS (TF32 LU, refined)", MethodKind::pipeline);
    step2::CusolverMixedPrecision<float> irs(problem.rows * problem.cols);
    lab::DeviceBuffer<int> info(1);
    int iterations = 0;
    const auto solve_system = [&](float *a, const float *b, float *f) {
      info.poison();
      iterations = irs.solve(a, b, f, info.data());
      int status = -1;
      info.copy_to_host(&status, 1);
      return status;
    };
    const StageTimes times = median_times(options.dense_reps, [&] {
      problem.start_run();
      const StageTimes run = pipeline.run_vendor_with_solver(problem.psf, static_cast<float>(options.lambda),
                                                             problem.g.data(), cublas, solve_system, problem.f.data());
      problem.end_run();
      result.worst_run_backward_error = problem.worse_run(result.worst_run_backward_error, problem.f);
      return run;
    });
    result.description += ", " + std::to_string(iterations) + " iterations" +
                          (iterations < 0 ? " (fell back to FP32)" : "");
    return pipeline_result(std::move(result), times, problem, problem.f, false);
  }

  // The dense pipelines: the course's products and cuBLAS's through the same code
  // (each giving both routes; in double also the course's with kernel 20), then the
  // vendor's. The stage times are medians over
  // options.dense_reps runs.
  template <typename T>
  void run_dense_methods(DeviceProblem<T> &problem, const RestoreOptions &options, lab::Cublas &cublas,
                         std::vector<MethodResult> &results)
  {
    const T lambda = static_cast<T>(options.lambda);
    DensePipeline<T> pipeline(problem.rows, problem.cols, true);
    // The worst η of the timed runs' images, of the solve route and of the inverse
    // route, for the pipeline being timed.
    double worst_solve = 0, worst_inverse = 0;
    const auto finish = [&](MethodResult result, const StageTimes &times, const lab::DeviceBuffer<T> &f,
                            bool inverse_route) {
      result.worst_run_backward_error = inverse_route ? worst_inverse : worst_solve;
      results.push_back(pipeline_result(std::move(result), times, problem, f, inverse_route));
    };
    // One timed run of a pipeline (@p run), on a fresh input, its images checked.
    const auto timed_run = [&](const std::function<StageTimes()> &run) {
      problem.start_run();
      const StageTimes times = run();
      problem.end_run();
      worst_solve = problem.worse_run(worst_solve, problem.f);
      if (times.inverse > 0)
        worst_inverse = problem.worse_run(worst_inverse, problem.f_inverse);
      return times;
    };

    // The products a pipeline runs on: their name in the method's, their words in its
    // line, and the product itself.
    struct PipelineProducts
    {
      std::string name, description;
      lab::Gemm<T> gemm;
    };
    std::vector<PipelineProducts> products = {{"course", "step-4's kernels", lab::Gemm<T>(step4::gemm)},
                                              {"cublas", "cuBLAS", lab::cublas_gemm_exact<T>(cublas)}};
    // In double, a third: step-4's kernel 20 for the products large enough for the
    // integer tensor cores to pay (step4::gemm_ozaki), step4::gemm for the rest; its
    // line says what share of the flops kernel 20 took (over all its timed runs).
    step4::Kernel20Tally tally;
    if constexpr (std::is_same_v<T, double>)
      products.push_back({"ozaki", "step-4's kernels with kernel 20 (Ozaki II)",
                          step4::tallied(lab::Gemm<double>(step4::gemm_ozaki), tally)});
    for (PipelineProducts &p : products)
      {
        worst_solve = worst_inverse = 0;
        const StageTimes times = median_times(options.dense_reps, [&] {
          return timed_run([&] {
            return pipeline.run(problem.psf, lambda, problem.g.data(), p.gemm, problem.f.data(),
                                problem.f_inverse.data());
          });
        });
        if (p.name == "ozaki")
          p.description += " (" + tally.summary() + ")";
        finish(blank_result("dense_" + p.name + "_solve", "dense, " + p.description + ", two solves",
                            MethodKind::pipeline),
               times, problem.f, false);
        finish(blank_result("dense_" + p.name + "_inverse", "dense, " + p.description + ", inverse (thesis)",
                            MethodKind::pipeline),
               times, problem.f_inverse, true);
      }
    if constexpr (std::is_same_v<T, double>)
      step4::release_ozaki_scratch(); // kernel 20's copies: up to 24 GiB, cuSOLVER's turn now
    worst_solve = worst_inverse = 0;
    const StageTimes vendor = median_times(options.dense_reps, [&] {
      return timed_run([&] { return pipeline.run_vendor(problem.psf, lambda, problem.g.data(), cublas, problem.f.data()); });
    });
    finish(blank_result("dense_cusolver", "dense, cuBLAS + cuSOLVER potrf/potrs", MethodKind::pipeline), vendor,
           problem.f, false);
    if (options.thesis_formula)
      {
        problem.poison_outputs();
        const StageTimes thesis = pipeline.run_thesis_formula(problem.psf, lambda, problem.g.data(), cublas,
                                                              problem.f.data());
        MethodResult result = blank_result("thesis_formula", "thesis' formula (HH^T + lambda I)^-1 H^T g",
                                           MethodKind::pipeline);
        result.equations = Equations::thesis;
        finish(std::move(result), thesis, problem.f, false);
      }
  }

  // The band pipeline on step-4's kernels: a run that is not timed (the first pays
  // for loading kernels) when it is to be timed more than once, then the median of
  // options.band_reps runs.
  template <typename T>
  MethodResult run_band_method(DeviceProblem<T> &problem, const PsfField &psf, const RestoreOptions &options)
  {
    const T lambda = static_cast<T>(options.lambda);
    BandPipeline<T> pipeline(psf, problem.rows, problem.cols, lab::Gemm<T>(step4::gemm));
    MethodResult result =
      blank_result("band_course_solve", "band, step-4's kernels, two solves", MethodKind::pipeline);
    const auto run = [&] {
      problem.start_run();
      const StageTimes times = pipeline.run(problem.psf, lambda, problem.g.data(), problem.f.data());
      problem.end_run();
      result.worst_run_backward_error = problem.worse_run(result.worst_run_backward_error, problem.f);
      return times;
    };
    if (options.band_reps > 1)
      run();
    const StageTimes times = median_times(options.band_reps, run);
    return pipeline_result(std::move(result), times, problem, problem.f, false);
  }

  // Conjugate gradients, matrix-free, to the precision's tolerance.
  template <typename T>
  MethodResult run_cg_method(DeviceProblem<T> &problem, const RestoreOptions &options)
  {
    const T lambda = static_cast<T>(options.lambda);
    ConjugateGradients<T> cg(problem.rows, problem.cols);
    IterationReport report;
    MethodResult result =
      time_fast_method<T>(problem, options.reps,
                          blank_result("cg", "conjugate gradients, matrix-free", MethodKind::iterative), [&](T *f) {
        report = cg.solve(problem.psf, lambda, problem.g.data(), f, iterative_tolerance<T>(),
                          cg_iteration_limit(problem.rows, problem.cols));
      });
    result.tolerance = iterative_tolerance<T>();
    result.iterations = report;
    return result;
  }

  // The FFT filter on one boundary model: it solves the equations of that model
  // (fft_model.h). The mirrored filter's η is computed here, from its whole result on
  // the extension (of which its image must be the top-left part, else η is NaN); the
  // others' at the end, with every method's.
  template <typename T>
  MethodResult run_fft_method(DeviceProblem<T> &problem, const Psf &psf, FftBoundary boundary,
                              const lab::Matrix<double> &degraded, const RestoreOptions &options)
  {
    const T lambda = static_cast<T>(options.lambda);
    FftFilter<T> filter(psf, problem.rows, problem.cols, boundary);
    const bool periodic = boundary == FftBoundary::periodic;
    MethodResult result = time_fast_method<T>(
      problem, options.reps,
      blank_result(periodic ? "fft_periodic" : "fft_mirrored",
                   periodic ? "FFT filter, periodic" : "FFT filter, mirrored extension", MethodKind::filter),
      [&](T *f) { filter.apply(lambda, problem.g.data(), f); }, periodic ? Equations::periodic : Equations::mirrored);
    result.equations = periodic ? Equations::periodic : Equations::mirrored;
    if (!periodic)
      {
        // The whole result of the last run, on its fresh input: multiplied back by 2^-e.
        lab::Matrix<T> values(filter.extended_rows(), filter.extended_cols());
        filter.extended_result().download(values);
        lab::scale(values, -problem.fresh.exponent());
        const lab::Matrix<double> whole = lab::convert<double>(values);
        bool cropped = true;
        for (int r = 0; r < problem.rows; ++r)
          for (int c = 0; c < problem.cols; ++c)
            cropped = cropped && whole(r, c) == result.image(r, c);
        result.backward_error = cropped ? backward_error(psf, degraded, options.lambda, whole, Equations::mirrored)
                                        : std::numeric_limits<double>::quiet_NaN();
      }
    return result;
  }

  // The CPU methods on A's stencil and b: CHOLMOD, run and timed once, and
  // Gauss–Seidel, whose time includes @p set_up (building the stencil and b).
  void run_cpu_methods(const NormalStencil &stencil, const lab::Matrix<double> &b, double set_up,
                       const RestoreOptions &options, std::vector<MethodResult> &results)
  {
    const int rows = stencil.image_rows, cols = stencil.image_cols;
    lab::HostTimer timer;
    if (options.sparse_cholesky)
      { // run and timed once
        MethodResult sparse =
          blank_result("cholmod", "sparse Cholesky, CHOLMOD (CPU, double)", MethodKind::sparse_cholesky);
        SparseCholeskySolution solution = sparse_cholesky_solve(stencil, b);
        sparse.sparse = solution.report;
        sparse.milliseconds = solution.report.milliseconds();
        if (solution.report.failed_pixel >= 0)
          sparse.failure = not_positive_definite(solution.report.failed_pixel);
        else
          sparse.image = std::move(solution.f);
        results.push_back(std::move(sparse));
      }

    if (options.gauss_seidel)
      {
        MethodResult gs = blank_result("gauss_seidel", "Gauss-Seidel (CPU, double)", MethodKind::iterative);
        gs.tolerance = options.gauss_seidel_tolerance;
        timer.start();
        gs.image = lab::Matrix<double>(rows, cols);
        gs.iterations =
          gauss_seidel(stencil, b, gs.image, options.gauss_seidel_tolerance, options.gauss_seidel_sweeps);
        gs.milliseconds = set_up + timer.milliseconds();
        results.push_back(std::move(gs));
      }
  }

  template <typename T>
  std::vector<MethodResult> restore_with_every_method(const Psf &psf, const lab::Matrix<double> &degraded,
                                                      const RestoreOptions &options, lab::Cublas *cublas,
                                                      DeviceProblem<T> *given)
  {
    std::vector<MethodResult> results = options.made_together;
    const int rows = degraded.rows(), cols = degraded.cols();
    // b = Hᵀg in double on the CPU: the CPU methods' right-hand side, and every
    // method's check.
    lab::HostTimer timer;
    const lab::Matrix<double> b = blur_transpose(psf, degraded);
    const double b_milliseconds = timer.milliseconds();
    if (options.use_gpu)
      {
        std::optional<DeviceProblem<T>> own;
        if (given == nullptr)
          own.emplace(psf, degraded);
        DeviceProblem<T> &problem = given != nullptr ? *given : *own;
        // Every timed run's image is checked by η (method_runs.h), from the model
        // and b, while the methods of this image run.
        problem.backward_error_of_run = [&](const lab::Matrix<double> &f) {
          return normal_backward_error(psf, b, options.lambda, f);
        };
        if (options.dense)
          run_dense_methods(problem, options, *cublas, results);
        if constexpr (std::is_same_v<T, float>)
          if (options.tf32)
            {
              // On a pipeline of its own, without the inverse route's X: the dense
              // pipelines' matrices are freed by now, and its own fit beside it.
              DensePipeline<float> pipeline(problem.rows, problem.cols, false);
              results.push_back(run_tf32_method(problem, pipeline, options, *cublas));
              step4::release_wgmma_scratch();
              if (options.irs)
                results.push_back(run_irs_method(problem, pipeline, options, *cublas));
            }
        if (options.band)
          results.push_back(run_band_method(problem, constant_field(psf), options));
        if (options.cg)
          results.push_back(run_cg_method(problem, options));
        if (options.fft)
          for (const FftBoundary boundary : {FftBoundary::periodic, FftBoundary::mirrored})
            results.push_back(run_fft_method(problem, psf, boundary, degraded, options));
        problem.backward_error_of_run = nullptr;
      }

    // The CPU methods share A, as a stencil (blur_model.h: the course's CPU reference,
    // O(n·k⁴) on one core), and b. Gauss–Seidel's time includes building them, as it
    // always has (the stencil is its whole set-up); the sparse
    // Cholesky's does not, nor the conversion to CHOLMOD's format (printed beside its
    // stages): a program built around CHOLMOD would assemble its matrix once and for
    // all, as the band pipeline assembles its own on the GPU.
    if (options.sparse_cholesky || options.gauss_seidel)
      {
        timer.start();
        const NormalStencil stencil = normal_matrix_stencil(psf, rows, cols, options.lambda);
        run_cpu_methods(stencil, b, b_milliseconds + timer.milliseconds(), options, results);
      }

    // η of every image for the equations its method solves: every check of a method
    // rests on it.
    measure_backward_errors(psf, degraded, b, options.lambda, results);
    return results;
  }

  template std::vector<MethodResult> restore_with_every_method<float>(const Psf &, const lab::Matrix<double> &,
                                                                      const RestoreOptions &, lab::Cublas *,
                                                                      DeviceProblem<float> *);
  template std::vector<MethodResult> restore_with_every_method<double>(const Psf &, const lab::Matrix<double> &,
                                                                       const RestoreOptions &, lab::Cublas *,
                                                                       DeviceProblem<double> *);
  // The runs that the field's list uses too (method_runs.h).
  template void run_dense_methods(DeviceProblem<float> &, const RestoreOptions &, lab::Cublas &,
                                  std::vector<MethodResult> &);
  template void run_dense_methods(DeviceProblem<double> &, const RestoreOptions &, lab::Cublas &,
                                  std::vector<MethodResult> &);
  template MethodResult run_band_method(DeviceProblem<float> &, const PsfField &, const RestoreOptions &);
  template MethodResult run_band_method(DeviceProblem<double> &, const PsfField &, const RestoreOptions &);
  template MethodResult run_cg_method(DeviceProblem<float> &, const RestoreOptions &);
  template MethodResult run_cg_method(DeviceProblem<double> &, const RestoreOptions &);
  template MethodResult run_fft_method(DeviceProblem<float> &, const Psf &, FftBoundary, const lab::Matrix<double> &,
                                       const RestoreOptions &);
  template MethodResult run_fft_method(DeviceProblem<double> &, const Psf &, FftBoundary,
                                       const lab::Matrix<double> &, const RestoreOptions &);
} // namespace step5
