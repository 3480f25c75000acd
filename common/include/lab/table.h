#pragma once
/// @file
/// @brief lab::Table: results as a `.dat` file that gnuplot reads.
///
/// Programs never make their results something to scrape off the console. Each one
/// writes a table: `#` lines saying what produced it (program, git revision, GPU, date,
/// precision, repetitions), then one `#` line naming the columns with their units,
/// then one row of numbers per size:
/// @code
/// # program: step-1
/// # revision: 3f2c1ab
/// # gpu: NVIDIA H100 80GB HBM3, compute capability 9.0, 132 SMs, 79.1 GiB
/// # date: 2026-11-21 10:15:02 UTC
/// # precision: float
/// # reps: 5 (median)
/// # n cpu_ms gpu_kernel_ms gpu_total_ms residual_cpu residual_gpu
/// 64 0.0312 1.52 1.61 2.1e-08 2.3e-08
/// @endcode
/// A value that was not measured (no GPU, say) is written as NaN, which gnuplot skips.

#include <string>
#include <vector>

namespace lab
{
  /// The `#` lines at the top of a table.
  struct TableHeader
  {
    /// The program that wrote the table, e.g. "step-1".
    std::string program;
    /// The device line, lab::describe() of the GPU.
    std::string gpu;
    /// "float" or "double".
    std::string precision;
    /// Repetitions behind each median.
    int reps = 0;
    /// Further `#` lines (what the columns mean, tolerances), without the '#'.
    std::vector<std::string> notes;
  };

  /// A table of numbers with named columns, written as a gnuplot `.dat` file.
  class Table
  {
  public:
    /// Column names with units, e.g. {"n", "cpu_ms", "residual"}; no spaces.
    explicit Table(std::vector<std::string> columns);

    /// Appends one row; it must have one value per column.
    void add_row(const std::vector<double> &values);

    /// Number of columns.
    std::size_t columns() const { return columns_.size(); }
    /// Number of rows added so far.
    std::size_t rows() const { return rows_.size(); }

    /// Writes the header and the rows to @p path, creating missing folders.
    /// Throws std::runtime_error when the file cannot be written.
    void write(const std::string &path, const TableHeader &header) const;

  private:
    std::vector<std::string> columns_;
    std::vector<std::vector<double>> rows_;
  };

  /// Writes @p table to @p path (Table::write) and says so on the console, "table
  /// written: PATH", so that a reader of the output knows where the numbers went.
  void write_table(const Table &table, const std::string &path, const TableHeader &header);

  /// Creates @p folder (and the folders above it) and makes sure a file can be written
  /// there, before a program spends minutes on results it could not save. Throws
  /// lab::bad_input naming the folder and the reason when it cannot.
  void prepare_output_folder(const std::string &folder);

  /// The git revision the program was built from ("unknown" outside a git checkout;
  /// "-dirty" appended when the tree had uncommitted changes).
  const char *git_revision();
} // namespace lab
