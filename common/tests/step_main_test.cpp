// Tests of lab/step_main.h: the skeleton of every step's main, and the small pieces
// every driver shares (the PASS/FAIL word, the table's GPU line, "table written").
#include <lab/lapack.h>
#include <lab/program.h>
#include <lab/step_main.h>
#include <lab/table.h>
#include <lab_catch.h>

#include "test_support.h"

#include <functional>
#include <iostream>
#include <string>
#include <vector>

using lab_test::contains;
using lab_test::lines_of;
using lab_test::starts_with;

namespace
{
  // One run of the skeleton on the CPU (--cpu-only: the same lines on every machine),
  // whose work records @p passed and @p failed checks. Returns the exit code; the
  // console's lines go to @p lines and what went to stderr to @p error.
  int run_with_checks(int passed, int failed, std::vector<std::string> &lines, std::string &error,
                      const std::function<void()> &refuse = {})
  {
    bool worked = false;
    int code = -1;
    lab_test::CaptureStream capture_error(std::cerr);
    {
      lab_test::CaptureStdout capture;
      code = lab::run_step(
        "step-9", "step-9: a test of the skeleton", true,
        [&](const lab::DeviceInfo &device, lab::Checks &checks) {
          worked = true;
          for (int i = 0; i < passed; ++i)
            checks.at_most("small", 1, 2);
          for (int i = 0; i < failed; ++i)
            checks.at_most("large", 3, 2);
          std::printf("device present: %d\n", device.present ? 1 : 0);
        },
        refuse);
      lines = lines_of(capture.text());
    }
    error = capture_error.text();
    if (!worked)
      lines.push_back("(no work)");
    return code;
  }
} // namespace

TEST_CASE("step_main: headline, GPU line, the work, a blank line, the summary; exit code 0")
{
  std::vector<std::string> lines;
  std::string error;
  const int code = run_with_checks(3, 0, lines, error);
  CHECK(code == 0);
  CHECK(error.empty());
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == "step-9: a test of the skeleton");
  CHECK(starts_with(lines[1], "GPU: not used (--cpu-only)"));
  CHECK(lines[2] == "device present: 0");
  CHECK(lines[3].empty());
  CHECK(lines[4] == "verification: all 3 checks passed");
}

TEST_CASE("planted: a failed check in the work is exit code 1, named in the summary")
{
  std::vector<std::string> lines;
  std::string error;
  CHECK(run_with_checks(2, 1, lines, error) == 1);
  CHECK(contains(lines.back(), "large"));
}

TEST_CASE("step_main: input refused before the device is looked for: exit code 2, no work")
{
  std::vector<std::string> lines;
  std::string error;
  const int code = run_with_checks(1, 0, lines, error, [] { throw lab::bad_input("--psf: no such PSF"); });
  CHECK(code == 2);
  CHECK(error == "step-9: error: --psf: no such PSF\n");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "step-9: a test of the skeleton");
  CHECK(lines[1] == "(no work)");
}

TEST_CASE("step_main: for_each_precision runs the precisions asked for, float first")
{
  lab::CommonOptions options;
  std::vector<std::string> seen;
  const auto record = [&](auto zero) { seen.push_back(sizeof(zero) == 4 ? "float" : "double"); };
  options.precision = "both";
  lab::for_each_precision(options, record);
  CHECK(seen == std::vector<std::string>{"float", "double"});
  seen.clear();
  options.precision = "double";
  lab::for_each_precision(options, record);
  CHECK(seen == std::vector<std::string>{"double"});
  seen.clear();
  options.precision = "float";
  lab::for_each_precision(options, record);
  CHECK(seen == std::vector<std::string>{"float"});
}

TEST_CASE("step_main: the CPU library line says what LAPACK does, or what is missing without it")
{
  lab_test::CaptureStdout capture;
  lab::print_cpu_library_line("LAPACK", "potrf on all cores, for scale", "row left out");
  const std::string text = capture.text();
  CHECK(text == (lab::have_lapack() ? "LAPACK: potrf on all cores, for scale\n"
                                    : "LAPACK: not installed (row left out)\n"));
}

TEST_CASE("step_main: verdict, the table's GPU line and 'table written'")
{
  CHECK(std::string(lab::verdict(true)) == "PASS");
  CHECK(std::string(lab::verdict(false)) == "FAIL");
  CHECK(lab::describe_for_table(lab::DeviceInfo{}) == "none (GPU part skipped)");

  lab_test::TempDir dir;
  lab::Table table({"n"});
  table.add_row({1});
  const std::string path = (dir / "t.dat").string();
  std::string text;
  {
    lab_test::CaptureStdout capture;
    lab::write_table(table, path, {"step-9", "none", "float", 1, {}});
    text = capture.text();
  }
  CHECK(text == "table written: " + path + "\n");
  CHECK(contains(lab_test::read_text(path), "# program: step-9"));
}
