#include "sweep/tables.h"

#include "kernels/11_autotuned.cuh"
#include "sweep/cpu_timing.h"
#include "sweep/shapes.h"

#include <lab/device.h>

#include <cmath>

namespace step4
{
  void Measurements::record(const std::string &product, const Measurement &measured)
  {
    by_product_[product] = measured;
  }

  void Measurements::record(const Measurements &others)
  {
    for (const auto &[product, measured] : others.by_product_)
      record(product, measured);
  }

  Measurement Measurements::of(const std::string &product) const
  {
    const auto found = by_product_.find(product);
    return found == by_product_.end() ? Measurement{} : found->second;
  }

  std::string on_a_bt(const GemmKernel<float> &kernel) { return kernel.name + "_ABt"; }

  namespace
  {
    // A row as its cells: every column's name beside its value. A table takes the names
    // of its columns from the row of an empty record (every value NaN), so the names
    // and the values come from the same function.
    struct Cell
    {
      std::string column;
      double value;
    };
    using Row = std::vector<Cell>;

    std::vector<std::string> columns(const Row &row)
    {
      std::vector<std::string> names;
      for (const Cell &cell : row)
        names.push_back(cell.column);
      return names;
    }

    std::vector<double> values(const Row &row)
    {
      std::vector<double> numbers;
      for (const Cell &cell : row)
        numbers.push_back(cell.value);
      return numbers;
    }

    GemmShape square(int n) { return {n, n, n}; }

    // @sect3{The columns of each table}
    //
    // cpu.dat: the time of each CPU loop, in milliseconds.
    Row cpu_row(const CpuSizeResult &result)
    {
      Row row = {{"n", double(result.n)}};
      for (const CpuLoop &loop : cpu_loops())
        row.push_back({loop.column, result.loops.of(loop.name).ms});
      return row;
    }

    // gflops_float.dat: GFLOP/s of cuBLAS (TF32 off) and of each FP32 kernel.
    Row gflops_row(const FloatSizeResult &result)
    {
      const GemmShape shape = square(result.n);
      Row row = {{"n", double(result.n)}, {"cublas", gflops(shape, result.cublas_fp32.ms)}};
      for (const GemmKernel<float> &kernel : fp32_kernels())
        row.push_back({kernel.name, gflops(shape, result.kernels.of(kernel.name).ms)});
      return row;
    }

    // time_float.dat: the copies, then the same products as gflops_float.dat, in
    // milliseconds.
    Row time_row(const FloatSizeResult &result)
    {
      Row row = {{"n", double(result.n)}, {"copies_ms", result.copies_ms},
                 {"cublas", result.cublas_fp32.ms}};
      for (const GemmKernel<float> &kernel : fp32_kernels())
        row.push_back({kernel.name, result.kernels.of(kernel.name).ms});
      return row;
    }

    // tf32.dat and double.dat show the GFLOP/s of each product, then the checked error
    // of each, in the same order: each product has two columns there, named together
    // ("12_tensor_cores_tf32" and "error_12_tensor_cores_tf32" for a kernel).
    struct ProductColumns
    {
      std::string gflops_column;
      std::string error_column;
      Measurement measured;
    };

    ProductColumns kernel_columns(const std::string &name, const Measurements &kernels)
    {
      return {name, "error_" + name, kernels.of(name)};
    }

    Row gflops_then_errors(int n, const std::vector<ProductColumns> &products)
    {
      Row row = {{"n", double(n)}};
      for (const ProductColumns &product : products)
        row.push_back({product.gflops_column, gflops(square(n), product.measured.ms)});
      for (const ProductColumns &product : products)
        row.push_back({product.error_column, product.measured.error});
      return row;
    }

    // tf32.dat: cuBLAS with TF32 off and on, the TF32 kernels, and kernel 16 on A·Bᵀ.
    Row tf32_row(const FloatSizeResult &result)
    {
      std::vector<ProductColumns> products = {
        {"cublas_fp32", "error_cublas_fp32", result.cublas_fp32},
        {"cublas_tf32", "error_cublas_tf32", result.cublas_tf32}};
      for (const GemmKernel<float> &kernel : tf32_kernels())
        products.push_back(kernel_columns(kernel.name, result.kernels));
      products.push_back(kernel_columns(on_a_bt(*find_float_kernel("16")), result.kernels));
      return gflops_then_errors(result.n, products);
    }

    // double.dat: cuBLAS DGEMM and the double kernels.
    Row double_row(const DoubleSizeResult &result)
    {
      std::vector<ProductColumns> products = {
        {"cublas_dgemm", "error_cublas", result.cublas_dgemm}};
      for (const GemmKernel<double> &kernel : fp64_kernels())
        products.push_back(kernel_columns(kernel.name, result.kernels));
      return gflops_then_errors(result.n, products);
    }

    // percent_of_cublas.dat: each GPU kernel's speed in percent of the cuBLAS product it
    // was timed alternately with (sweep/measurement.h): the FP32 kernels of SGEMM, the
    // TF32 kernels of cuBLAS with TF32 (kernel 16 on A·Bᵀ of cuBLAS on A·Bᵀ), the double
    // kernels of DGEMM. Not the ratio of two GFLOP/s columns of the other tables: those
    // are the medians of runs that need not have seen the same clock.
    //
    // cublas_ms_in_pairs.dat has the same columns: the median of cuBLAS's runs in the
    // pairs of each kernel, in milliseconds, beside the kernel's own median in
    // time_float.dat and double.dat.
    Row kernels_row(int n, const Measurements &kernels, double Measurement::*field)
    {
      Row row = {{"n", double(n)}};
      const auto add = [&](const std::string &name) { row.push_back({name, kernels.of(name).*field}); };
      for (const GemmKernel<float> &kernel : fp32_kernels())
        add(kernel.name);
      for (const GemmKernel<float> &kernel : tf32_kernels())
        add(kernel.name);
      add(on_a_bt(*find_float_kernel("16")));
      for (const GemmKernel<double> &kernel : fp64_kernels())
        add(kernel.name);
      return row;
    }

    // shapes_float.dat: the shape (a transposed operand is 1), then GFLOP/s of cuBLAS
    // and of the kernels that ran on the shapes.
    Row shape_row(const std::vector<const GemmKernel<float> *> &kernels, const ShapeResult &result)
    {
      const GemmShape &shape = result.shape;
      Row row = {{"m", double(shape.m)},
                 {"n", double(shape.n)},
                 {"k", double(shape.k)},
                 {"op_a_transposed", double(shape.op_a == Op::transpose)},
                 {"op_b_transposed", double(shape.op_b == Op::transpose)},
                 {"cublas", gflops(shape, result.cublas.ms)}};
      for (const GemmKernel<float> *kernel : kernels)
        row.push_back({kernel->name, gflops(shape, result.kernels.of(kernel->name).ms)});
      return row;
    }
  } // namespace

  Tables::Tables(const Settings &settings)
    : settings_(settings), shape_kernels_(shape_kernels(settings)),
      cpu_(columns(cpu_row({}))), gflops_(columns(gflops_row({}))), time_(columns(time_row({}))),
      tf32_(columns(tf32_row({}))), shapes_(columns(shape_row(shape_kernels_, {}))),
      double_(columns(double_row({})))
  {}

  void Tables::add(const CpuSizeResult &result) { cpu_.add_row(values(cpu_row(result))); }

  void Tables::add(const FloatSizeResult &result)
  {
    gflops_.add_row(values(gflops_row(result)));
    time_.add_row(values(time_row(result)));
    tf32_.add_row(values(tf32_row(result)));
    kernels_by_size_[result.n].record(result.kernels);
  }

  void Tables::add(const ShapeResult &result)
  {
    shapes_.add_row(values(shape_row(shape_kernels_, result)));
  }

  void Tables::add(const DoubleSizeResult &result)
  {
    double_.add_row(values(double_row(result)));
    kernels_by_size_[result.n].record(result.kernels);
  }

  // @sect3{The notes above each table}
  lab::TableHeader Tables::header(const std::string &what, const std::string &precision,
                                  const std::vector<std::string> &notes) const
  {
    return {what, lab::describe_for_table(settings_.device), precision, settings_.options.reps,
            notes};
  }

  std::string Tables::path(const std::string &file) const
  {
    return settings_.options.out + "/step-4/" + file;
  }

  void Tables::write_cpu() const
  {
    lab::write_table(cpu_, path("cpu.dat"),
                     header("step-4 (matrix product on the CPU)", "float",
                            {"milliseconds; blas_ms is sgemm on all cores (NaN without BLAS)"}));
  }

  void Tables::write_float(double fp32_peak_gflops) const
  {
    const std::string what = "step-4 (SGEMM kernels against cuBLAS, TF32 off)";
    lab::write_table(gflops_, path("gflops_float.dat"),
                     header(what, "float",
                            {"GFLOP/s = 2 n^3 / kernel time",
                             "peak_fp32_gflops " + std::to_string(std::lround(fp32_peak_gflops)),
                             "kernel 11 tuned: " + tuned_choice()}));
    lab::write_table(time_, path("time_float.dat"),
                     header(what, "float",
                            {"kernel times in milliseconds; copies_ms = A and B to the GPU, C "
                             "back (pageable memory)"}));
    lab::write_table(tf32_, path("tf32.dat"),
                     header("step-4 (tensor cores: TF32 kernels against cuBLAS with TF32)",
                            "float (TF32 inputs)",
                            {"GFLOP/s, then the checked errors: max |C - C_ref| / (|A||B|)_ij",
                             "16_wgmma_tf32_ABt: kernel 16 on A B^T, no transposing pass"}));
    write_percentages();
  }

  void Tables::write_shapes() const
  {
    lab::write_table(shapes_, path("shapes_float.dat"),
                     header("step-4 (SGEMM: rectangular and transposed shapes)", "float",
                            {"GFLOP/s (2mnk / time); alpha = 1.5, beta = -0.5"}));
  }

  void Tables::write_double() const
  {
    lab::write_table(double_, path("double.dat"),
                     header("step-4 (double-precision kernels against cuBLAS DGEMM)", "double",
                            {"GFLOP/s of cuBLAS and each kernel, then the checked errors"}));
    write_percentages();
  }

  void Tables::write_percentages() const
  {
    const auto table = [&](double Measurement::*field) {
      lab::Table result(columns(kernels_row(0, {}, field)));
      for (const auto &[n, kernels] : kernels_by_size_)
        result.add_row(values(kernels_row(n, kernels, field)));
      return result;
    };
    lab::write_table(
      table(&Measurement::percent_of_vendor), path("percent_of_cublas.dat"),
      header("step-4 (each kernel in percent of cuBLAS, timed alternately with it)",
             "float and double",
             {"100 x median over pairs of runs of cuBLAS time / kernel time; FP32 kernels "
              "of SGEMM (TF32 off), TF32 kernels of cuBLAS with TF32, double kernels of DGEMM"}));
    lab::write_table(
      table(&Measurement::vendor_ms_in_pairs), path("cublas_ms_in_pairs.dat"),
      header("step-4 (cuBLAS's time in the pairs of each kernel)", "float and double",
             {"median of cuBLAS's runs, in ms, in the pairs in which each kernel was timed alternately with it; "
              "the kernel's own median is in time_float.dat / double.dat, the median of the pairs' ratios in "
              "percent_of_cublas.dat"}));
  }
} // namespace step4
