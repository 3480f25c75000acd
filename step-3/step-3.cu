// step-3: inverting triangular matrices by Gaussian elimination (GETS), and faster.
//
// What this program shows: how the thesis' triangular inverse, GETS, one launch per
// row, becomes a computation made of matrix products that beats the vendor's own
// triangular inverse; and when not to invert at all. For every size of the sweep and
// each precision it takes the Cholesky factor L of a random SPD matrix A (condition
// 1e3, factorised by cuSOLVER) and prints four tables:
//  1. the triangular inverse X = L^{-1}: the CPU, LAPACK, cuSOLVER's trtri, cuBLAS's
//     trsm against the identity and every variant: time, GFLOP/s (n³/3 flops),
//     percent of trtri and of trsm, the residual ‖L X − I‖_F / (‖L‖_F ‖X‖_F), check;
//  2. solving A x = b for one and for 256 right-hand sides: two substitutions against
//     the explicit inverse (time and backward error), and cuSOLVER's potrs;
//  3. the SPD inverse A^{-1} = X^T X against cuSOLVER's potri and potrs(I);
//  4. Gauss–Jordan inversion of a general matrix, the thesis' contrast, against
//     cuSOLVER's getrf + getrs(I), and the matrix on which the thesis' pivoting fails.
// Tables: `step-3/inverse_<precision>.dat`, `solve_…`, `spd_inverse_…`,
// `gauss_jordan_…`. `--variant NAME` runs one triangular variant (with the vendor's
// routines beside it); `--matrix FILE` inverts a lower triangular matrix of your own,
// `--matrix FILE --general` any square matrix by Gauss–Jordan.

// @sect3{Include files}
//
// Each table's stage lives in the folder of its lesson: the triangular inverse in
// triangular/, the solves and the SPD inverse in solve_and_spd_inverse/, Gauss–Jordan
// in gauss_jordan/; so does each lesson's way with a matrix of your own.
#include "gauss_jordan/gauss_jordan_table.h"
#include "gauss_jordan/general_file.h"
#include "gauss_jordan/show_unstable_example.h"
#include "matrix_file.h"
#include "problem.h"
#include "result_checks.h"
#include "settings.h"
#include "solve_and_spd_inverse/solve_table.h"
#include "solve_and_spd_inverse/spd_inverse_table.h"
#include "tables.h"
#include "triangular/inverse_table.h"
#include "triangular/triangular_file.h"
#include "triangular/triangular_inverse.h"

#include <lab/checks.h>
#include <lab/cli.h>
#include <lab/cublas_gemm.h>
#include <lab/device.h>
#include <lab/forecast.h>
#include <lab/memory.h>
#include <lab/precision.h>
#include <lab/step_main.h>
#include <lab/table.h>
#include <lab/timer.h>
#include <lab/vendor_math.h>

#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace step3
{
  const std::vector<int> full_sweep = {256, 512, 1024, 2048, 4096, 8192, 16384};
  const std::vector<int> quick_sweep = {256, 512, 1024, 2048};

  // @sect3{What a size costs}
  //
  // On the host: A generated in double, then A, L and up to four result matrices in
  // the working precision. On the GPU: A, L, X, the SPD inverse C, a copy for the
  // in-place vendor routines and variant 4's workspace (a quarter matrix); the
  // right-hand sides are small beside them.
  template <typename T>
  lab::Memory memory_needed(int n)
  {
    const double matrix = lab::matrix_bytes<T>(n, n);
    return {lab::matrix_bytes<double>(n, n) + 6 * matrix, 5.5 * matrix};
  }

  // @sect3{One size: the stages, one per table}
  //
  // Without a GPU only the CPU's part of the first table runs; --table picks one. The
  // SPD problem (its matrix, factor and device copies) is made only for the tables
  // that use it: Gauss–Jordan makes its own matrix.
  template <typename T>
  void run_size(const Settings &settings, int n, lab::Cublas *cublas, Tables<T> &tables, lab::Checks &checks)
  {
    const std::string context = std::string(lab::precision_name<T>()) + " n=" + std::to_string(n);
    std::printf("\nn = %d\n", n);
    const bool gpu_tables = settings.use_gpu && (settings.runs_table("solve") || settings.runs_table("spd-inverse"));
    std::optional<Problem<T>> problem;
    if (settings.runs_table("inverse") || gpu_tables)
      problem.emplace(settings, n, cublas);
    if (settings.runs_table("inverse"))
      tables.add(run_inverses(*problem, checks, context));
    if (!settings.use_gpu)
      return;
    if (settings.runs_table("solve"))
      tables.add(run_solves(*problem, checks, context));
    if (settings.runs_table("spd-inverse"))
      tables.add(run_spd_inverse(*problem, checks, context));
    if (settings.runs_table("gauss-jordan"))
      tables.add(run_gauss_jordan<T>(settings, n, *cublas, checks, context));
  }

  // @sect3{The sweep for one precision}
  template <typename T>
  void run_sweep(const Settings &settings, const std::vector<int> &sizes, lab::Checks &checks)
  {
    std::printf("\n%s (machine epsilon %.1e; times in ms, median of %d)\n", lab::precision_name<T>(),
                std::numeric_limits<T>::epsilon(), settings.options.reps);
    std::unique_ptr<lab::Cublas> cublas;
    if (settings.use_gpu)
      {
        cublas = std::make_unique<lab::Cublas>();
        if (settings.runs_table("gauss-jordan"))
          show_unstable_example<T>(*cublas, checks);
      }
    Tables<T> tables;
    lab::TimeForecast forecast;
    for (const int n : sizes)
      {
        forecast.announce(n);
        lab::HostTimer timer;
        run_size<T>(settings, n, cublas.get(), tables, checks);
        forecast.record(n, timer.milliseconds() / 1000);
      }
    tables.write(settings);
  }

  // @sect3{Your own matrix, in one precision}
  //
  // The file is read and described here; each lesson inverts it its own way.
  template <typename T>
  void invert_file(const Settings &settings, lab::Checks &checks)
  {
    const lab::Matrix<T> a = read_square_matrix<T>(settings.matrix_file);
    std::printf("\nmatrix %s: %d x %d, %s, %s\n", settings.matrix_file.c_str(), a.rows(), a.rows(),
                lab::precision_name<T>(), settings.general ? "general (Gauss-Jordan)" : "lower triangular");
    if (settings.general)
      invert_general_file(settings, a, checks);
    else
      invert_triangular_file(settings, a, checks);
  }
} // namespace step3

// @sect3{The main function}
//
// Parse the command line, say what runs where, refuse what cannot be done (sizes
// that do not fit, an output folder that cannot be written, a bad matrix file: exit
// code 2), run each precision, print the summary (exit code 1 when a check failed).
int main(int argc, char **argv)
{
  using namespace step3;
  Settings settings;
  CLI::App app{"step-3: triangular inverses by Gaussian elimination (GETS), and faster", "step-3"};
  lab::add_common_options(app, settings.options);
  app.add_option("--variant", settings.variant, "Run one triangular variant only, by number or name (1 ... 4)")
    ->type_name("NAME")
    ->check([](const std::string &name) {
      return find_inverse_variant<float>(name) ? std::string() : "no variant named '" + name + "'";
    });
  app.add_option("--matrix", settings.matrix_file,
                 "Invert the lower triangular matrix in this text file (one row per line) instead of the sweep")
    ->type_name("FILE")
    ->excludes(app.get_option("--sizes"))
    ->excludes(app.get_option("--max-size"));
  app.add_option("--table", settings.table, "Fill one table only: inverse, solve, spd-inverse or gauss-jordan")
    ->type_name("NAME")
    ->check(CLI::IsMember({"inverse", "solve", "spd-inverse", "gauss-jordan"}))
    ->excludes(app.get_option("--matrix"));
  app.add_flag("--general", settings.general, "The --matrix file is a general matrix: invert it by Gauss-Jordan")
    ->needs(app.get_option("--matrix"));
  if (const auto exit_code = lab::parse_command_line(app, argc, argv))
    return *exit_code;

  return lab::run_step(
    "step-3", "step-3: triangular inverses by Gaussian elimination, against cuSOLVER and cuBLAS",
    settings.options.cpu_only, [&](const lab::DeviceInfo &device, lab::Checks &checks) {
      settings.device = device;
      settings.use_gpu = device.present;
      lab::print_cpu_library_line("LAPACK", "trtri on all cores, for scale", "row left out");
      if (settings.use_gpu)
        std::printf("%s\n", lab::vendor_math_line().c_str());
      std::printf("vendor: L from potrf with LOWER (converted outside the timing); trtri, potri, potrs and trsm in "
                  "the configurations tools/vendor-configurations measured fastest\n");
      if (!settings.matrix_file.empty())
        {
          lab::for_each_precision(settings.options, [&](auto zero) {
            invert_file<decltype(zero)>(settings, checks);
          });
          return;
        }
      const std::vector<int> sizes = lab::choose_sizes(settings.options, full_sweep, quick_sweep);
      // Everything that could stop the sweep half-way is checked before it starts.
      lab::prepare_output_folder(settings.options.out + "/step-3");
      lab::for_each_precision(settings.options, [&](auto zero) {
        using T = decltype(zero);
        lab::refuse_sizes_that_do_not_fit(sizes, memory_needed<T>, lab::precision_name<T>(), settings.use_gpu);
      });
      std::printf("check: residuals <= %g eps at every size (result_checks.h); L = Cholesky factor of a random SPD "
                  "matrix of condition %g\n",
                  residual_constant, condition_number);
      lab::for_each_precision(settings.options, [&](auto zero) {
        run_sweep<decltype(zero)>(settings, sizes, checks);
      });
    });
}
