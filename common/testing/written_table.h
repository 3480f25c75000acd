#pragma once
// For the tests of a step's tables: a table as lab::write_table wrote it, read back as
// text, its column line and its rows; and each column read back by its name.
//
// The plots find a column by its name (gnuplot's column("cpu_ms")), so what a table
// must get right is that every value stands under its own name. A test that compares
// whole lines, or only the last columns, lets two columns swapped by the code go
// through whenever they hold the same kind of number (step-2's cpu_ms and lapack_ms
// once did, and the plots would have drawn the wrong method as the faster). So each
// step's table test writes a table from records filled by hand with values that are
// all different, says which value it put under which name (ExpectedColumns), and
// column_mismatches() reads every column back by name. Its planted fault,
// swaps_not_seen(), exchanges every pair of columns of the written table and asks
// whether the comparison sees it: a test whose values repeat cannot.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
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

  /// The words of @p line, split at white space.
  inline std::vector<std::string> words_of(const std::string &line)
  {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string word; in >> word;)
      words.push_back(word);
    return words;
  }

  /// The names of the columns, in order (the column line without its '#').
  inline std::vector<std::string> column_names(const WrittenTable &table)
  {
    std::vector<std::string> names = words_of(table.columns);
    if (!names.empty() && names.front() == "#")
      names.erase(names.begin());
    return names;
  }

  /// The values of the column named @p name, one per row: what gnuplot's
  /// column("name") reads ("NaN" is NaN). Throws std::invalid_argument when no column,
  /// or more than one, has that name, or a row has not one value per column.
  inline std::vector<double> column(const WrittenTable &table, const std::string &name)
  {
    const std::vector<std::string> names = column_names(table);
    std::size_t index = names.size();
    for (std::size_t c = 0; c < names.size(); ++c)
      if (names[c] == name)
        {
          if (index != names.size())
            throw std::invalid_argument("two columns are named " + name);
          index = c;
        }
    if (index == names.size())
      throw std::invalid_argument("no column is named " + name);
    std::vector<double> values;
    for (const std::string &row : table.rows)
      {
        const std::vector<std::string> cells = words_of(row);
        if (cells.size() != names.size())
          throw std::invalid_argument("a row of " + std::to_string(cells.size()) + " values under " +
                                      std::to_string(names.size()) + " columns: " + row);
        values.push_back(std::stod(cells[index]));
      }
    return values;
  }

  /// What a test wrote into each column of a table, by the column's name: one value
  /// per row, in the order of the rows.
  using ExpectedColumns = std::map<std::string, std::vector<double>>;

  /// Hands out the values a table test writes into its records, each different from
  /// every other, and notes the column each one must appear in: the test reads
  ///   size.cpu.ms = values("cpu_ms");
  /// and so says, field by field, which column the field belongs in. Called once per
  /// row for a column, it expects one value per row, in the order of the rows.
  ///
  /// The values are 1.25, 2.25, 3.25, ...; whole() hands out whole numbers from the
  /// same count, for the fields that hold one (a size, a count). No value is handed out
  /// twice. A column the test computes from them (GFLOP/s from a time) must differ
  /// from the others as well; the planted test (swaps_not_seen) shows that it does.
  /// Where one measurement feeds several tables (a time here, its GFLOP/s there), the
  /// tables' objects hand out from one count (sharing_count()), so that no two tables'
  /// values can meet in a computed column.
  class DistinctValues
  {
  public:
    /// A value not handed out before, expected in the column @p name.
    double operator()(const std::string &name)
    {
      const double value = next();
      expect(name, value);
      return value;
    }

    /// A value not handed out before, expected in no column (a time that only a
    /// column computed from it shows).
    double next() { return ++*count_ + 0.25; }

    /// A whole number not handed out before, expected in the column @p name.
    int whole(const std::string &name)
    {
      const int value = ++*count_;
      expect(name, value);
      return value;
    }

    /// Expects @p value (computed by the test from the values it handed out) in the
    /// column @p name.
    void expect(const std::string &name, double value) { expected_[name].push_back(value); }

    const ExpectedColumns &expected() const { return expected_; }

    /// Another table's values, handed out from the same count as these.
    DistinctValues sharing_count() const
    {
      DistinctValues other;
      other.count_ = count_;
      return other;
    }

  private:
    std::shared_ptr<int> count_ = std::make_shared<int>(0);
    ExpectedColumns expected_;
  };

  /// Whether @p written is what @p expected says, to the six significant digits a table
  /// keeps (lab::Table::write); NaN matches NaN.
  inline bool same_values(const std::vector<double> &written, const std::vector<double> &expected)
  {
    if (written.size() != expected.size())
      return false;
    for (std::size_t r = 0; r < written.size(); ++r)
      {
        const double a = written[r], b = expected[r];
        if (std::isnan(a) || std::isnan(b))
          {
            if (std::isnan(a) != std::isnan(b))
              return false;
          }
        else if (!(std::abs(a - b) <= 1e-5 * std::max(std::abs(a), std::abs(b))))
          return false;
      }
    return true;
  }

  /// Everything in which @p table differs from @p expected, one line each: a column
  /// of the table that the test did not write (a column added without a test), one
  /// the test wrote that the table lacks, a column whose values are not the ones the
  /// test put under its name. Empty when every column holds what was written into it.
  inline std::vector<std::string> column_mismatches(const WrittenTable &table, const ExpectedColumns &expected)
  {
    std::vector<std::string> mismatches;
    for (const std::string &name : column_names(table))
      if (expected.count(name) == 0)
        mismatches.push_back(name + ": a column the test does not know");
    for (const auto &[name, values] : expected)
      {
        std::vector<double> written;
        try
          {
            written = column(table, name);
          }
        catch (const std::invalid_argument &error)
          {
            mismatches.push_back(name + ": " + error.what());
            continue;
          }
        if (!same_values(written, values))
          {
            std::string line = name + ": written";
            for (const double v : written)
              line += " " + std::to_string(v);
            mismatches.push_back(line);
          }
      }
    return mismatches;
  }

  /// @p table with the values of the columns @p a and @p b exchanged in every row:
  /// what the table would hold if the code wrote each value under the other's name.
  inline WrittenTable with_columns_swapped(WrittenTable table, const std::string &a, const std::string &b)
  {
    const std::vector<std::string> names = column_names(table);
    std::size_t ia = names.size(), ib = names.size();
    for (std::size_t c = 0; c < names.size(); ++c)
      {
        ia = names[c] == a ? c : ia;
        ib = names[c] == b ? c : ib;
      }
    for (std::string &row : table.rows)
      {
        std::vector<std::string> cells = words_of(row);
        if (ia < cells.size() && ib < cells.size())
          std::swap(cells[ia], cells[ib]);
        row.clear();
        for (const std::string &cell : cells)
          row += (row.empty() ? "" : " ") + cell;
      }
    return table;
  }

  /// The planted fault of every table test: each pair of columns of @p table
  /// exchanged in turn (with_columns_swapped). Returns the pairs whose exchange
  /// column_mismatches() does not see, as "a <-> b"; empty when the test's values tell
  /// every column from every other, so that no two columns swapped by the code can
  /// pass. Two columns that hold the same text in every row (NaN in both: a pipeline
  /// without the stage they name) are left out: exchanging them changes nothing.
  inline std::vector<std::string> swaps_not_seen(const WrittenTable &table, const ExpectedColumns &expected)
  {
    std::vector<std::string> unseen;
    const std::vector<std::string> names = column_names(table);
    for (std::size_t i = 0; i < names.size(); ++i)
      for (std::size_t j = i + 1; j < names.size(); ++j)
        {
          const WrittenTable swapped = with_columns_swapped(table, names[i], names[j]);
          if (swapped.rows != table.rows && column_mismatches(swapped, expected).empty())
            unseen.push_back(names[i] + " <-> " + names[j]);
        }
    return unseen;
  }

  /// A table a test wrote: its file, and the values the test put into it.
  struct TableWritten
  {
    std::filesystem::path file;
    const DistinctValues *values;
  };

  /// What @p check (column_mismatches or swaps_not_seen) finds in every table of
  /// @p tables, each line after its file's name.
  template <typename Check>
  std::vector<std::string> in_every_table(const std::vector<TableWritten> &tables, Check check)
  {
    std::vector<std::string> all;
    for (const TableWritten &t : tables)
      for (const std::string &line : check(read_written_table(t.file), t.values->expected()))
        all.push_back(t.file.filename().string() + ": " + line);
    return all;
  }

  inline std::vector<std::string> column_mismatches(const std::vector<TableWritten> &tables)
  {
    return in_every_table(tables, [](const WrittenTable &table, const ExpectedColumns &expected) {
      return column_mismatches(table, expected);
    });
  }

  inline std::vector<std::string> swaps_not_seen(const std::vector<TableWritten> &tables)
  {
    return in_every_table(tables, [](const WrittenTable &table, const ExpectedColumns &expected) {
      return swaps_not_seen(table, expected);
    });
  }
} // namespace lab_test
