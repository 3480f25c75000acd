// The tables (see tables.h).
#include "report/tables.h"

#include "report/report.h"

#include <limits>

namespace step5
{
  namespace
  {
    // The methods, in the order of their columns.
    const std::vector<std::string> method_names = {
      "dense_course_solve", "dense_course_inverse", "dense_cublas_solve", "dense_cublas_inverse", "dense_cusolver",
      "band_course_solve",  "cg",                   "fft_periodic",       "fft_mirrored",         "gauss_seidel",
      "cholmod",            "dense_tf32_refined",   "dense_cusolver_irs", "dense_ozaki_solve",
      "dense_ozaki_inverse"};

    // The pipelines whose stages are tabulated: name, and the methods of their two
    // routes (empty: the pipeline has no inverse route).
    struct TabulatedPipeline
    {
      std::string name, solve_method, inverse_method;
    };
    const std::vector<TabulatedPipeline> tabulated_pipelines = {
      {"course", "dense_course_solve", "dense_course_inverse"},
      {"cublas", "dense_cublas_solve", "dense_cublas_inverse"},
      {"cusolver", "dense_cusolver", ""},
      {"band", "band_course_solve", ""},
      {"tf32", "dense_tf32_refined", ""},
      {"cusolver_irs", "dense_cusolver_irs", ""},
      {"ozaki", "dense_ozaki_solve", "dense_ozaki_inverse"}};

    // Every table starts with n (unknowns, the course's size column) and the image's
    // rows and columns.
    std::vector<std::string> method_columns(const std::string &suffix, const std::vector<std::string> &before = {})
    {
      std::vector<std::string> columns = {"n", "rows", "cols"};
      columns.insert(columns.end(), before.begin(), before.end());
      for (const std::string &name : method_names)
        columns.push_back(name + suffix);
      return columns;
    }

    std::vector<std::string> stage_columns()
    {
      std::vector<std::string> columns = {"n", "rows", "cols"};
      for (const TabulatedPipeline &pipeline : tabulated_pipelines)
        for (const std::string stage : {"build", "normal", "factor", "invert", "inverse", "apply", "solve"})
          columns.push_back(pipeline.name + "_" + stage + "_ms");
      return columns;
    }
  } // namespace

  Tables::Tables()
    : times_(method_columns("_ms")), quality_(method_columns("_psnr", {"lambda", "degraded_psnr"})),
      stages_(stage_columns())
  {}

  void Tables::add(double lambda, const lab::Matrix<double> &original, const lab::Matrix<double> &degraded,
                   const std::vector<MethodResult> &results)
  {
    const int rows = degraded.rows(), cols = degraded.cols();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto find = [&](const std::string &name) { return find_result(results, name); };
    const double n = double(rows) * cols;
    std::vector<double> time_row = {n, double(rows), double(cols)},
                        quality_row = {n, double(rows), double(cols), lambda, psnr_or_nan(original, degraded)};
    for (const std::string &name : method_names)
      {
        const MethodResult *m = find(name);
        time_row.push_back(m ? m->milliseconds : nan);
        quality_row.push_back(m ? psnr_or_nan(original, m->image) : nan);
      }
    std::vector<double> stage_row = {n, double(rows), double(cols)};
    for (const TabulatedPipeline &pipeline : tabulated_pipelines)
      {
        const MethodResult *solve = find(pipeline.solve_method);
        const MethodResult *inverse = find(pipeline.inverse_method);
        const auto stage = [&](const MethodResult *m, double StageTimes::*field) {
          return m ? m->stages.*field : nan;
        };
        stage_row.insert(stage_row.end(),
                         {stage(solve, &StageTimes::build), stage(solve, &StageTimes::normal),
                          stage(solve, &StageTimes::factor), stage(inverse, &StageTimes::invert),
                          stage(inverse, &StageTimes::inverse), stage(inverse, &StageTimes::apply),
                          stage(solve, &StageTimes::solve)});
      }
    times_.add_row(time_row);
    quality_.add_row(quality_row);
    stages_.add_row(stage_row);
  }

  void Tables::write(const std::string &path, const std::string &precision, const lab::DeviceInfo &device, int reps,
                     const std::vector<std::string> &notes) const
  {
    const std::string gpu = lab::describe_for_table(device);
    times_.write(path + "times_" + precision + ".dat",
                 {"step-5 times of each method (ms)", gpu, precision, reps, notes});
    quality_.write(path + "quality_" + precision + ".dat",
                   {"step-5 PSNR of each method (dB)", gpu, precision, reps, notes});
    stages_.write(path + "stages_" + precision + ".dat",
                  {"step-5 stages of the dense pipelines (ms)", gpu, precision, reps, notes});
  }
} // namespace step5
