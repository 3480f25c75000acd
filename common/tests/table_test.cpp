// Tests of lab/table.h: the .dat files gnuplot reads.
#include <lab/program.h>
#include <lab/table.h>
#include <lab_catch.h>

#include "test_support.h"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using lab_test::contains;
using lab_test::lines_of;
using lab_test::read_text;
using lab_test::starts_with;
using lab_test::TempDir;

namespace
{
  lab::TableHeader test_header()
  {
    lab::TableHeader header;
    header.program = "step-x";
    header.gpu = "no CUDA device (test)";
    header.precision = "float";
    header.reps = 5;
    header.notes = {"tolerance: 8 n eps", "times in milliseconds"};
    return header;
  }

  // "2026-11-21 10:15:02 UTC"
  bool looks_like_utc_date(const std::string &text)
  {
    const std::string pattern = "dddd-dd-dd dd:dd:dd UTC";
    if (text.size() != pattern.size())
      return false;
    for (std::size_t i = 0; i < text.size(); ++i)
      if (pattern[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(text[i]))
                            : text[i] != pattern[i])
        return false;
    return true;
  }
} // namespace

TEST_CASE("table: the header, the notes, the column line and the rows, in order")
{
  TempDir dir;
  lab::Table table({"n", "cpu_ms", "residual"});
  table.add_row({64, 0.0312, 2.1e-8});
  table.add_row({128, std::numeric_limits<double>::quiet_NaN(), 1.5});
  table.add_row({4096, 1.0 / 3.0, -0.25});
  const std::filesystem::path path = dir / "table.dat";
  table.write(path.string(), test_header());

  const std::vector<std::string> lines = lines_of(read_text(path));
  INFO(read_text(path));
  REQUIRE(lines.size() == 12);
  CHECK(lines[0] == "# program: step-x");
  CHECK(lines[1] == std::string("# revision: ") + lab::git_revision());
  CHECK(lines[2] == "# gpu: no CUDA device (test)");
  REQUIRE(starts_with(lines[3], "# date: "));
  CHECK(looks_like_utc_date(lines[3].substr(8)));
  CHECK(lines[4] == "# precision: float");
  CHECK(lines[5] == "# reps: 5 (median)");
  CHECK(lines[6] == "# tolerance: 8 n eps");
  CHECK(lines[7] == "# times in milliseconds");
  CHECK(lines[8] == "# n cpu_ms residual");
  CHECK(lines[9] == "64 0.0312 2.1e-08");
  // A value that was not measured is written as NaN, which gnuplot skips.
  CHECK(lines[10] == "128 NaN 1.5");
  // Six significant digits.
  CHECK(lines[11] == "4096 0.333333 -0.25");
}

TEST_CASE("table: a table without rows or notes has the header and the column line")
{
  TempDir dir;
  lab::Table table({"n", "gflops"});
  lab::TableHeader header = test_header();
  header.notes.clear();
  header.precision = "double";
  header.reps = 11;
  table.write((dir / "empty.dat").string(), header);
  const std::vector<std::string> lines = lines_of(read_text(dir / "empty.dat"));
  REQUIRE(lines.size() == 7);
  CHECK(lines[4] == "# precision: double");
  CHECK(lines[5] == "# reps: 11 (median)");
  CHECK(lines[6] == "# n gflops");
}

TEST_CASE("table: writing again replaces the file")
{
  TempDir dir;
  const std::string path = (dir / "t.dat").string();
  lab::Table first({"n"});
  first.add_row({1});
  first.add_row({2});
  first.write(path, test_header());
  lab::Table second({"n"});
  second.add_row({3});
  second.write(path, test_header());
  const std::vector<std::string> lines = lines_of(read_text(path));
  REQUIRE(lines.size() == 10);
  CHECK(lines.back() == "3");
  CHECK_FALSE(contains(read_text(path), "\n1\n"));
}

TEST_CASE("table: missing folders are created")
{
  TempDir dir;
  const std::filesystem::path path = dir / "results" / "local" / "step-9" / "x.dat";
  lab::Table table({"n", "ms"});
  table.add_row({17, 0.5});
  REQUIRE_FALSE(std::filesystem::exists(path.parent_path()));
  table.write(path.string(), test_header());
  REQUIRE(std::filesystem::is_regular_file(path));
  CHECK(lines_of(read_text(path)).back() == "17 0.5");
}

TEST_CASE("table: a row of the wrong length throws and is not added")
{
  TempDir dir;
  lab::Table table({"n", "a", "b"});
  table.add_row({1, 2, 3});
  CHECK_THROWS_AS(table.add_row({1, 2}), std::invalid_argument);
  CHECK_THROWS_AS(table.add_row({1, 2, 3, 4}), std::invalid_argument);
  CHECK_THROWS_AS(table.add_row({}), std::invalid_argument);
  const std::string message =
    lab_test::message_of<std::invalid_argument>([&] { table.add_row({1, 2}); });
  CHECK(contains(message, "2 values for 3 columns"));
  table.write((dir / "t.dat").string(), test_header());
  const std::vector<std::string> lines = lines_of(read_text(dir / "t.dat"));
  REQUIRE(lines.size() == 10);
  CHECK(lines.back() == "1 2 3");
}

TEST_CASE("table: an unwritable path throws std::runtime_error")
{
  TempDir dir;
  lab::Table table({"n"});
  table.add_row({1});
  SECTION("the path is a folder")
  {
    const std::string message = lab_test::message_of<std::runtime_error>(
      [&] { table.write(dir.path().string(), test_header()); });
    CHECK(contains(message, dir.path().string()));
  }
  SECTION("a folder on the path is a file")
  {
    lab_test::write_text(dir / "plain-file", "x\n");
    const std::string path = (dir / "plain-file" / "sub" / "t.dat").string();
    CHECK_THROWS_AS(table.write(path, test_header()), std::runtime_error);
  }
}

TEST_CASE("table: git_revision names a revision")
{
  const std::string revision = lab::git_revision();
  CHECK_FALSE(revision.empty());
  CHECK(revision.find_first_of(" \n") == std::string::npos);
}

TEST_CASE("table: whole numbers are written in full, others with six digits")
{
  TempDir dir;
  const std::string path = (dir / "t.dat").string();
  lab::Table table({"n", "ms"});
  table.add_row({1048576, 0.1234567});
  table.add_row({-3, 2.5e-9});
  table.write(path, test_header());
  const std::vector<std::string> lines = lines_of(read_text(path));
  REQUIRE(lines.size() >= 2);
  CHECK(lines[lines.size() - 2] == "1048576 0.123457");
  CHECK(lines.back() == "-3 2.5e-09");
}

TEST_CASE("table: prepare_output_folder creates the folder and refuses one it cannot write")
{
  TempDir dir;
  SECTION("a new folder, two levels deep, is created and left empty")
  {
    const std::filesystem::path folder = dir / "results" / "step-9";
    lab::prepare_output_folder(folder.string());
    CHECK(std::filesystem::is_directory(folder));
    CHECK(std::filesystem::is_empty(folder));
  }
  SECTION("a folder on the path is a file")
  {
    lab_test::write_text(dir / "plain-file", "x\n");
    const std::string folder = (dir / "plain-file" / "step-9").string();
    const std::string message =
      lab_test::message_of<lab::bad_input>([&] { lab::prepare_output_folder(folder); });
    INFO(message);
    CHECK(contains(message, "cannot write to the output folder '" + folder + "': "));
  }
  SECTION("a place where no folder can be made, even by root")
  {
    const std::string message =
      lab_test::message_of<lab::bad_input>([&] { lab::prepare_output_folder("/proc/nope/step-9"); });
    INFO(message);
    CHECK(contains(message, "cannot write to the output folder '/proc/nope/step-9': "));
  }
}
