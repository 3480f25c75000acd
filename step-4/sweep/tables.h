#pragma once
// @sect3{What a stage measured, and the tables that keep it}
//
// Each stage of the sweep returns a record of what it measured, with a named field for
// each thing every run has (the size, cuBLAS, the copies) and the products of a list
// (the kernels, the CPU loops) by name: those that ran, and only those. One object,
// Tables, turns the records into the step's tables (`<out>/step-4/*.dat`). It alone
// knows their columns: each row is written as a list of cells, every column's name
// beside its value, so no list of names elsewhere has to follow the order of a row. A
// product that did not run (a kernel not asked for with --kernel, one this GPU cannot
// run, a CPU loop past its size limit) has no entry in its record, and its column says
// NaN, which gnuplot skips.

#include "sweep/measurement.h"
#include "sweep/settings.h"

#include <lab/table.h>

#include <map>
#include <string>
#include <vector>

namespace step4
{
  // The products of one problem that ran, by the name on their console lines
  // ("9_warp_tiling", "16_wgmma_tf32_ABt", "CPU_naive").
  class Measurements
  {
  public:
    void record(const std::string &product, const Measurement &measured);
    // Records every product of @p others too.
    void record(const Measurements &others);
    // What @p product measured; NaN for all where it did not run.
    Measurement of(const std::string &product) const;

  private:
    std::map<std::string, Measurement> by_product_;
  };

  // One square size in float (step-4.cu): the copies to and from the GPU, cuBLAS with
  // TF32 off and on, and the FP32 and TF32 kernels, kernel 16 on A·Bᵀ among them.
  struct FloatSizeResult
  {
    int n = 0;
    double copies_ms = std::nan("");
    Measurement cublas_fp32, cublas_tf32;
    Measurements kernels;
  };

  // The name under which kernel 16's run on A·Bᵀ is printed and tabled (step-4.cu
  // says why it runs twice): "16_wgmma_tf32_ABt".
  std::string on_a_bt(const GemmKernel<float> &kernel);

  // One square size in double (sweep/double_precision.h).
  struct DoubleSizeResult
  {
    int n = 0;
    Measurement cublas_dgemm;
    Measurements kernels;
  };

  // One square size on the CPU (sweep/cpu_timing.h): the loops by name.
  struct CpuSizeResult
  {
    int n = 0;
    Measurements loops;
  };

  // One rectangular or transposed shape (sweep/shapes.h).
  struct ShapeResult
  {
    GemmShape shape;
    Measurement cublas;
    Measurements kernels;
  };

  // The tables, filled one record at a time; each stage writes its tables when it is
  // done, and each write prints "table written: PATH".
  class Tables
  {
  public:
    explicit Tables(const Settings &settings);

    void add(const CpuSizeResult &result);
    void add(const FloatSizeResult &result);
    void add(const ShapeResult &result);
    void add(const DoubleSizeResult &result);

    // cpu.dat: the CPU loops' times.
    void write_cpu() const;
    // gflops_float.dat, time_float.dat and tf32.dat; the first notes the GPU's peak.
    void write_float(double fp32_peak_gflops) const;
    // shapes_float.dat.
    void write_shapes() const;
    // double.dat.
    void write_double() const;

  private:
    const Settings &settings_;
    // The kernels that run on the shapes (sweep/shapes.h): their columns.
    std::vector<const GemmKernel<float> *> shape_kernels_;
    lab::Table cpu_, gflops_, time_, tf32_, shapes_, double_;
    // The GPU kernels of both precisions at each square size, for the percentages.
    std::map<int, Measurements> kernels_by_size_;

    // percent_of_cublas.dat: every GPU kernel at each square size, in float and double
    // (written by write_float and again by write_double, with whatever has run).
    void write_percentages() const;
    lab::TableHeader header(const std::string &what, const std::string &precision,
                            const std::vector<std::string> &notes) const;
    std::string path(const std::string &file) const;
  };
} // namespace step4
