#pragma once
// @sect3{What a method gives back}
//
// Every method of the step, whatever it is, gives back the same record: its image,
// its time, how well the image solves the equations it meant to solve, and, by its
// kind, what else it has to say: a pipeline its stages, the sparse Cholesky its own,
// an iterative method how far it got.

#include "methods/iteration_report.h"
#include "methods/pipeline_stages.h"
#include "methods/sparse_cholesky.h"

#include <lab/matrix.h>

#include <string>
#include <vector>

namespace step5
{
  // The equations a method solves, against which its η is computed (report/checks.h).
  enum class Equations
  {
    normal,   // (HᵀH + λI) f = Hᵀg: the direct and iterative methods
    thesis,   // (HHᵀ + λI) f = Hᵀg: the thesis' formula
    periodic, // the periodic model on the image: the periodic FFT filter
    mirrored  // the periodic model on the mirrored extension: the mirrored FFT filter
  };

  // What kind of method gave the result, which says what more it reports.
  enum class MethodKind
  {
    filter,          // one formula, nothing more to report: the FFT filters
    pipeline,        // a dense or band pipeline: its stages (MethodResult::stages)
    sparse_cholesky, // CHOLMOD: its own stages and what it found (MethodResult::sparse)
    iterative        // CG, Gauss–Seidel: its iterations (MethodResult::iterations)
  };

  struct MethodResult
  {
    std::string name;          // e.g. "dense_course_solve": also the image's file name
    std::string description;   // one line for the console
    MethodKind kind = MethodKind::filter;
    lab::Matrix<double> image;
    double milliseconds = 0;   // the whole method, from g on the GPU to f on the GPU
    int channels_together = 1; // the channels its run restored at once (channels_together.h):
                               // milliseconds and stages are theirs together
    StageTimes stages;         // a pipeline's stages
    SparseCholeskyReport sparse; // the sparse Cholesky's stages and what it found
    IterationReport iterations; // an iterative method's
    Equations equations = Equations::normal;
    double backward_error = 0; // η (report/checks.h), for the method's own equations
    double worst_run_backward_error = 0; // the worst η of its timed runs, where each was
                                         // checked (method_runs.h)
    double tolerance = 0;      // the iterative methods' stopping tolerance, or a direct
                               // method's own bound on η (TF32); 0: the precision's
    std::string failure;       // empty, or why the method did not produce an image
  };

  // The result named @p name that has an image (no failure), or nullptr.
  inline const MethodResult *find_result(const std::vector<MethodResult> &results, const std::string &name)
  {
    for (const MethodResult &m : results)
      if (m.name == name && m.failure.empty())
        return &m;
    return nullptr;
  }

  // The result of a method before it runs: its name and its console line's
  // description.
  inline MethodResult blank_result(const std::string &name, const std::string &description, MethodKind kind)
  {
    MethodResult result;
    result.name = name;
    result.description = description;
    result.kind = kind;
    return result;
  }
} // namespace step5
