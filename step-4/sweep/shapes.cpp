#include "sweep/shapes.h"

#include "gemm_check.h"

#include <cstdio>
#include <string>

namespace step4
{
  std::vector<GemmShape> shapes(bool quick)
  {
    if (quick)
      return {{512, 384, 128}, {384, 512, 256, Op::transpose, Op::none},
              {300, 200, 500, Op::none, Op::transpose}, {257, 129, 65}};
    return {{8192, 8192, 256}, {4096, 4096, 8192, Op::transpose, Op::none},
            {4096, 4096, 8192, Op::none, Op::transpose}, {2048, 8192, 4096},
            {4999, 5003, 4001}};
  }

  std::vector<const GemmKernel<float> *> shape_kernels(const Settings &settings)
  {
    std::vector<const GemmKernel<float> *> kernels;
    for (const char *number : {"10", "11", "15"})
      if (settings.runs(find_float_kernel(number)->name))
        kernels.push_back(find_float_kernel(number));
    return kernels;
  }

  namespace
  {
    // One shape: C = 1.5 op(A) op(B) - 0.5 C, its name in the summary such as
    // "float 384x512x256 TN" (the letters say which operand is transposed).
    ShapeResult run_shape(const Settings &settings, const GemmShape &shape, lab::Cublas &cublas,
                          lab::Checks &checks)
    {
      const int reps = settings.options.reps;
      const GemmProblem<float> problem = random_problem<float>(shape, 1.5f, -0.5f, 77);
      DeviceProblem<float> device(problem);
      const std::string name = "float " + std::to_string(shape.m) + "x" + std::to_string(shape.n) +
                               "x" + std::to_string(shape.k) + " " + op_letter(shape.op_a) +
                               op_letter(shape.op_b);
      std::printf("\n%s (checked: %s)\n", name.c_str(), device.coverage().c_str());
      print_column_names();
      ShapeResult result;
      result.shape = shape;
      const lab::Gemm<float> sgemm = lab::cublas_gemm(cublas, lab::CublasMath::fp32);
      result.cublas = device.run(reps, sgemm);
      const ConsoleLines lines{checks, name, shape, gemm_tolerance<float>(shape.k)};
      lines.print("cuBLAS_FP32", result.cublas);
      for (const GemmKernel<float> *kernel : shape_kernels(settings))
        result.kernels.record(
          kernel->name, device.run_and_print(reps, sgemm, kernel->launch, lines, kernel->name));
      return result;
    }
  } // namespace

  void run_shapes(const Settings &settings, lab::Cublas &cublas, Tables &tables,
                  lab::Checks &checks)
  {
    std::printf("\nrectangular and transposed shapes, C = 1.5 op(A) op(B) - 0.5 C\n");
    for (const GemmShape &shape : shapes(settings.options.quick))
      tables.add(run_shape(settings, shape, cublas, checks));
    tables.write_shapes();
  }
} // namespace step4
