#pragma once
// For the tests of a step's tables: a table as lab::write_table wrote it, read back as
// text, its column line and its rows.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace lab_test
{
  /// The column line of a written table (the last line that starts with '#') and its
  /// rows.
  struct WrittenTable
  {
    std::string columns;
    std::vector<std::string> rows;
  };

  /// Reads the table written at @p path.
  inline WrittenTable read_written_table(const std::filesystem::path &path)
  {
    WrittenTable table;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("#", 0) == 0)
        table.columns = line;
      else
        table.rows.push_back(line);
    return table;
  }
} // namespace lab_test
