// Tests of the program's tables (sweep/tables.h). step-4/plot.gp reads their columns
// by position, so each table's column line must stay as it is whatever ran: every
// kernel has its column, asked for or not, and a product that did not run is NaN. And
// every column must hold the number of its name: the tables are written from records
// filled by hand, every number different from every other, and read back column by
// column. They run on every machine.
#include "sweep/cpu_timing.h"
#include "sweep/shapes.h"
#include "sweep/tables.h"

#include <lab_catch.h>
#include <temp_dir.h>
#include <written_table.h>

#include <filesystem>
#include <string>
#include <vector>

namespace
{
  // The column line of a written table (the last '#' line) and its rows.
  lab_test::WrittenTable read_table(const std::filesystem::path &folder, const std::string &file)
  {
    return lab_test::read_written_table(folder / "step-4" / file);
  }

  step4::Settings settings_writing_to(const std::filesystem::path &folder)
  {
    step4::Settings settings;
    settings.options.out = folder.string();
    return settings;
  }

  // n = 1000: 2 n³ = 2e9 flops, so a product of t ms runs at 2000 / t GFLOP/s.
  constexpr int n = 1000;
  double gflops_at_n(double ms) { return 2000 / ms; }

  // One size of every kind, and one shape, written as the program writes them: every
  // time, error and percentage a number of its own (lab_test::DistinctValues), each
  // table's expectations apart, all of them handed out from one count.
  struct WrittenSweepTables
  {
    lab_test::TempDir folder;
    lab_test::DistinctValues cpu;
    lab_test::DistinctValues gflops = cpu.sharing_count(), time = cpu.sharing_count(), tf32 = cpu.sharing_count(),
                             shapes = cpu.sharing_count(), fp64 = cpu.sharing_count(),
                             percent = cpu.sharing_count(), in_pairs = cpu.sharing_count();

    WrittenSweepTables()
    {
      const step4::Settings settings = settings_writing_to(folder.path());
      step4::Tables tables(settings);
      for (lab_test::DistinctValues *table : {&cpu, &gflops, &time, &tf32, &fp64, &percent, &in_pairs})
        table->expect("n", n);

      step4::CpuSizeResult on_cpu;
      on_cpu.n = n;
      for (const step4::CpuLoop &loop : step4::cpu_loops())
        on_cpu.loops.record(loop.name, {cpu(loop.column)});
      tables.add(on_cpu);

      // The float size: cuBLAS and the FP32 kernels in time_float.dat (ms) and
      // gflops_float.dat, cuBLAS and the TF32 kernels in tf32.dat (GFLOP/s and error),
      // every kernel's percentage in percent_of_cublas.dat.
      step4::FloatSizeResult f;
      f.n = n;
      f.copies_ms = time("copies_ms");
      f.cublas_fp32 = {time("cublas"), tf32("error_cublas_fp32")};
      gflops.expect("cublas", gflops_at_n(f.cublas_fp32.ms));
      tf32.expect("cublas_fp32", gflops_at_n(f.cublas_fp32.ms));
      f.cublas_tf32 = {tf32.next(), tf32("error_cublas_tf32")};
      tf32.expect("cublas_tf32", gflops_at_n(f.cublas_tf32.ms));
      for (const step4::GemmKernel<float> &kernel : step4::fp32_kernels())
        {
          const step4::Measurement m{time(kernel.name), time.next(), percent(kernel.name), in_pairs(kernel.name)};
          gflops.expect(kernel.name, gflops_at_n(m.ms));
          f.kernels.record(kernel.name, m);
        }
      std::vector<std::string> tf32_names;
      for (const step4::GemmKernel<float> &kernel : step4::tf32_kernels())
        tf32_names.push_back(kernel.name);
      tf32_names.push_back(step4::on_a_bt(*step4::find_float_kernel("16")));
      for (const std::string &name : tf32_names)
        {
          const step4::Measurement m{tf32.next(), tf32("error_" + name), percent(name), in_pairs(name)};
          tf32.expect(name, gflops_at_n(m.ms));
          f.kernels.record(name, m);
        }
      tables.add(f);

      // A rectangular shape, A transposed: 2 m n k = 1.2e7 flops, 12 / t GFLOP/s.
      step4::ShapeResult shape;
      shape.shape = {100, 200, 300, step4::Op::transpose, step4::Op::none};
      for (const auto &[column, value] : {std::pair<const char *, double>{"m", 100}, {"n", 200}, {"k", 300},
                                          {"op_a_transposed", 1}, {"op_b_transposed", 0}})
        shapes.expect(column, value);
      shape.cublas.ms = shapes.next();
      shapes.expect("cublas", 12 / shape.cublas.ms);
      for (const step4::GemmKernel<float> *kernel : step4::shape_kernels(settings))
        {
          const double ms = shapes.next();
          shapes.expect(kernel->name, 12 / ms);
          shape.kernels.record(kernel->name, {ms});
        }
      tables.add(shape);

      // The double size: GFLOP/s and error of cuBLAS and of each kernel.
      step4::DoubleSizeResult d;
      d.n = n;
      d.cublas_dgemm = {fp64.next(), fp64("error_cublas")};
      fp64.expect("cublas_dgemm", gflops_at_n(d.cublas_dgemm.ms));
      for (const step4::GemmKernel<double> &kernel : step4::fp64_kernels())
        {
          const step4::Measurement m{fp64.next(), fp64("error_" + kernel.name), percent(kernel.name),
                                     in_pairs(kernel.name)};
          fp64.expect(kernel.name, gflops_at_n(m.ms));
          d.kernels.record(kernel.name, m);
        }
      tables.add(d);

      tables.write_cpu();
      tables.write_float(1000);
      tables.write_shapes();
      tables.write_double();
    }

    std::vector<lab_test::TableWritten> all() const
    {
      const std::filesystem::path tables = folder / "step-4";
      return {{tables / "cpu.dat", &cpu},           {tables / "gflops_float.dat", &gflops},
              {tables / "time_float.dat", &time},   {tables / "tf32.dat", &tf32},
              {tables / "shapes_float.dat", &shapes}, {tables / "double.dat", &fp64},
              {tables / "percent_of_cublas.dat", &percent}, {tables / "cublas_ms_in_pairs.dat", &in_pairs}};
    }
  };

  using Mismatches = std::vector<std::string>;
} // namespace

TEST_CASE("sweep tables: every column of the eight tables holds the value written under its name", "[cpu]")
{
  const WrittenSweepTables written;
  CHECK(lab_test::column_mismatches(written.all()) == Mismatches{});
}

TEST_CASE("planted: any two columns of step-4's tables swapped FAIL the test by name", "[cpu]")
{
  const WrittenSweepTables written;
  CHECK(lab_test::swaps_not_seen(written.all()) == Mismatches{});
}

TEST_CASE("sweep tables: the columns plot.gp reads, in order", "[cpu]")
{
  const lab_test::TempDir folder;
  const std::filesystem::path &dir = folder.path();
  const step4::Settings settings = settings_writing_to(dir);
  step4::Tables tables(settings);
  tables.write_cpu();
  tables.write_float(1000);
  tables.write_shapes();
  tables.write_double();

  CHECK(read_table(dir, "cpu.dat").columns ==
        "# n naive_ms cache_tiled_ms openmp_rows_ms openmp_tiles_ms blas_ms");
  const std::string fp32_kernels =
    "1_naive 2_shared_tiles_16 3_coalesced 4_shared_tiles_32 5_register_blocking_1d "
    "6_register_blocking_2d 7_vectorized_loads 8_conflict_free_smem 9_warp_tiling "
    "10_double_buffered 11_autotuned 15_async_pipeline";
  CHECK(read_table(dir, "gflops_float.dat").columns == "# n cublas " + fp32_kernels);
  CHECK(read_table(dir, "time_float.dat").columns == "# n copies_ms cublas " + fp32_kernels);
  CHECK(read_table(dir, "tf32.dat").columns ==
        "# n cublas_fp32 cublas_tf32 12_tensor_cores_tf32 16_wgmma_tf32 17_wgmma_b_as_stored "
        "18_wgmma_multicast 16_wgmma_tf32_ABt error_cublas_fp32 error_cublas_tf32 "
        "error_12_tensor_cores_tf32 error_16_wgmma_tf32 error_17_wgmma_b_as_stored "
        "error_18_wgmma_multicast error_16_wgmma_tf32_ABt");
  CHECK(read_table(dir, "shapes_float.dat").columns ==
        "# m n k op_a_transposed op_b_transposed cublas 10_double_buffered 11_autotuned "
        "15_async_pipeline");
  CHECK(read_table(dir, "double.dat").columns ==
        "# n cublas_dgemm 13_double_precision 14_tensor_cores_fp64 19_dmma_tma 20_ozaki_int8 error_cublas "
        "error_13_double_precision error_14_tensor_cores_fp64 error_19_dmma_tma error_20_ozaki_int8");
  CHECK(read_table(dir, "percent_of_cublas.dat").columns ==
        "# n " + fp32_kernels +
          " 12_tensor_cores_tf32 16_wgmma_tf32 17_wgmma_b_as_stored 18_wgmma_multicast "
          "16_wgmma_tf32_ABt 13_double_precision 14_tensor_cores_fp64 19_dmma_tma 20_ozaki_int8");
  // cuBLAS's medians in the same pairs, under the same names.
  CHECK(read_table(dir, "cublas_ms_in_pairs.dat").columns == read_table(dir, "percent_of_cublas.dat").columns);
}

TEST_CASE("sweep tables: a product that did not run is NaN in its column", "[cpu]")
{
  const lab_test::TempDir folder;
  const std::filesystem::path &dir = folder.path();
  const step4::Settings settings = settings_writing_to(dir);
  step4::Tables tables(settings);
  // n = 100: 2 n³ = 2e6 flops, so 1 ms is 2 GFLOP/s.
  step4::FloatSizeResult float_size;
  float_size.n = 100;
  float_size.copies_ms = 0.5;
  float_size.cublas_fp32 = {1, 1e-7};
  float_size.cublas_tf32 = {0.5, 1e-4};
  float_size.kernels.record("15_async_pipeline", {4, 2e-7, 26});
  float_size.kernels.record(step4::on_a_bt(*step4::find_float_kernel("16")), {2, 3e-4, 24});
  tables.add(float_size);
  // The percentages are what the kernels' records say, not ratios of the times: the
  // tables must not recompute them (15 took 4 ms against cuBLAS's 1 ms alone, 25%,
  // and beside cuBLAS measured 26%).
  tables.write_float(1000);
  CHECK(read_table(dir, "percent_of_cublas.dat").rows ==
        std::vector<std::string>{"100 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 26 NaN NaN NaN "
                                 "NaN 24 NaN NaN NaN NaN"});
  // The double sizes join the same rows, by n; a size only one precision ran has its
  // own row.
  step4::DoubleSizeResult double_size;
  double_size.n = 100;
  double_size.cublas_dgemm = {1, 0};
  double_size.kernels.record("14_tensor_cores_fp64", {2, 0, 51});
  tables.add(double_size);
  step4::DoubleSizeResult another_double_size;
  another_double_size.n = 200;
  another_double_size.kernels.record("19_dmma_tma", {2, 0, 93.5});
  tables.add(another_double_size);
  tables.write_double();

  CHECK(read_table(dir, "gflops_float.dat").rows ==
        std::vector<std::string>{"100 2 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 0.5"});
  CHECK(read_table(dir, "time_float.dat").rows ==
        std::vector<std::string>{"100 0.5 1 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 4"});
  CHECK(read_table(dir, "tf32.dat").rows ==
        std::vector<std::string>{"100 2 4 NaN NaN NaN NaN 1 1e-07 0.0001 NaN NaN NaN NaN 0.0003"});
  CHECK(read_table(dir, "double.dat").rows ==
        std::vector<std::string>{"100 2 NaN 1 NaN NaN 0 NaN 0 NaN NaN", "200 NaN NaN NaN 8 NaN NaN NaN NaN 0 NaN"});
  CHECK(read_table(dir, "percent_of_cublas.dat").rows ==
        std::vector<std::string>{"100 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 26 NaN NaN NaN "
                                 "NaN 24 NaN 51 NaN NaN",
                                 "200 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN "
                                 "NaN NaN NaN NaN 93.5 NaN"});
}
