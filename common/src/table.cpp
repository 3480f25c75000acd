#include <lab/table.h>

#include <lab/program.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace lab
{
  Table::Table(std::vector<std::string> columns) : columns_(std::move(columns)) {}

  void Table::add_row(const std::vector<double> &values)
  {
    if (values.size() != columns_.size())
      throw std::invalid_argument("Table::add_row: " + std::to_string(values.size()) +
                                  " values for " + std::to_string(columns_.size()) +
                                  " columns");
    rows_.push_back(values);
  }

  namespace
  {
    std::string utc_now()
    {
      const std::time_t now = std::time(nullptr);
      std::tm utc{};
      gmtime_r(&now, &utc);
      char text[32];
      std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
      return text;
    }
  } // namespace

  void write_table(const Table &table, const std::string &path, const TableHeader &header)
  {
    table.write(path, header);
    std::printf("table written: %s\n", path.c_str());
  }

  void prepare_output_folder(const std::string &folder)
  {
    const auto refuse = [&](const std::string &reason) {
      throw bad_input("cannot write to the output folder '" + folder + "': " + reason);
    };
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error)
      refuse(error.message());
    // A folder can exist and still refuse files (read-only mounts, permissions): try
    // one, and remove it again.
    const std::filesystem::path probe = std::filesystem::path(folder) / ".write-test";
    if (!std::ofstream(probe))
      refuse(std::strerror(errno));
    std::filesystem::remove(probe, error);
  }

  void Table::write(const std::string &path, const TableHeader &header) const
  {
    const std::filesystem::path file(path);
    if (file.has_parent_path())
      std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file);
    out << "# program: " << header.program << '\n'
        << "# revision: " << git_revision() << '\n'
        << "# gpu: " << header.gpu << '\n'
        << "# date: " << utc_now() << '\n'
        << "# precision: " << header.precision << '\n'
        << "# reps: " << header.reps << " (median)\n";
    for (const std::string &note : header.notes)
      out << "# " << note << '\n';
    out << '#';
    for (const std::string &column : columns_)
      out << ' ' << column;
    out << '\n';
    // Six significant digits are more than any timing or residual deserves.
    out.precision(6);
    for (const auto &row : rows_)
      {
        for (std::size_t i = 0; i < row.size(); ++i)
          {
            out << (i ? " " : "");
            // Sizes and counts are written in full (1048576, not 1.04858e+06).
            if (std::isnan(row[i]))
              out << "NaN";
            else if (row[i] == std::floor(row[i]) && std::abs(row[i]) < 1e15)
              out << static_cast<long long>(row[i]);
            else
              out << row[i];
          }
        out << '\n';
      }
    if (!out)
      throw std::runtime_error("cannot write the table " + path);
  }
} // namespace lab
