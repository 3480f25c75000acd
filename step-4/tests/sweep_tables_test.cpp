// Tests of the program's tables (sweep/tables.h). step-4/plot.gp reads their columns
// by position, so each table's column line must stay as it is whatever ran: every
// kernel has its column, asked for or not, and a product that did not run is NaN.
// They run on every machine: the records are filled by hand.
#include "sweep/tables.h"

#include <lab_catch.h>
#include <written_table.h>

#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace
{
  // A fresh folder for the tables of one test case (the test removes it at its end).
  std::filesystem::path fresh_folder(const std::string &test)
  {
    const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                         ("step-4-" + test + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    return folder;
  }

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
} // namespace

TEST_CASE("sweep tables: the columns plot.gp reads, in order", "[cpu]")
{
  const std::filesystem::path dir = fresh_folder("table-columns");
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
        "# n cublas_dgemm 13_double_precision 14_tensor_cores_fp64 19_dmma_tma error_cublas "
        "error_13_double_precision error_14_tensor_cores_fp64 error_19_dmma_tma");
  CHECK(read_table(dir, "percent_of_cublas.dat").columns ==
        "# n " + fp32_kernels +
          " 12_tensor_cores_tf32 16_wgmma_tf32 17_wgmma_b_as_stored 18_wgmma_multicast "
          "16_wgmma_tf32_ABt 13_double_precision 14_tensor_cores_fp64 19_dmma_tma");
  std::filesystem::remove_all(dir);
}

TEST_CASE("sweep tables: a product that did not run is NaN in its column", "[cpu]")
{
  const std::filesystem::path dir = fresh_folder("table-nan");
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
                                 "NaN 24 NaN NaN NaN"});
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
        std::vector<std::string>{"100 2 NaN 1 NaN 0 NaN 0 NaN", "200 NaN NaN NaN 8 NaN NaN NaN 0"});
  CHECK(read_table(dir, "percent_of_cublas.dat").rows ==
        std::vector<std::string>{"100 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 26 NaN NaN NaN "
                                 "NaN 24 NaN 51 NaN",
                                 "200 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN "
                                 "NaN NaN NaN NaN 93.5"});
  std::filesystem::remove_all(dir);
}
