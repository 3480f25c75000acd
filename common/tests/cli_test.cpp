// Tests of lab/cli.h: the command line every step shares.
#include <lab/cli.h>
#include <lab_catch.h>

#include "test_support.h"

#include <iostream>
#include <optional>
#include <string>
#include <vector>

using lab_test::contains;
using lab_test::lines_of;
using lab_test::starts_with;

namespace
{
  // What one call of parse_command_line did.
  struct Parsed
  {
    std::optional<int> code;
    std::string out, err;
    lab::CommonOptions options;
  };

  // Parses "step-x <args...>" as a step's main function would, capturing std::cout and
  // std::cerr.
  Parsed parse(const std::vector<std::string> &args)
  {
    Parsed parsed;
    CLI::App app("A test program", "step-x");
    lab::add_common_options(app, parsed.options);

    std::vector<std::string> words = {"step-x"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (std::string &word : words)
      argv.push_back(word.data());
    argv.push_back(nullptr);

    lab_test::CaptureStream out(std::cout), err(std::cerr);
    parsed.code = lab::parse_command_line(app, static_cast<int>(words.size()), argv.data());
    parsed.out = out.text();
    parsed.err = err.text();
    return parsed;
  }
} // namespace

TEST_CASE("cli: no arguments give the defaults")
{
  const Parsed p = parse({});
  CHECK_FALSE(p.code.has_value());
  CHECK(p.err.empty());
  CHECK(p.out.empty());
  CHECK(p.options.sizes.empty());
  CHECK(p.options.max_size == 0);
  CHECK(p.options.precision == "both");
  CHECK(p.options.reps == 5);
  CHECK(p.options.out == "results/local");
  CHECK_FALSE(p.options.quick);
  CHECK_FALSE(p.options.cpu_only);
}

TEST_CASE("cli: every option is stored")
{
  SECTION("--sizes 1,2,3")
  {
    const Parsed p = parse({"--sizes", "1,2,3"});
    CHECK_FALSE(p.code.has_value());
    CHECK(p.options.sizes == std::vector<int>{1, 2, 3});
    CHECK(p.err.empty());
  }
  SECTION("--sizes with large values keeps their order")
  {
    const Parsed p = parse({"--sizes", "4096,17,256"});
    CHECK_FALSE(p.code.has_value());
    CHECK(p.options.sizes == std::vector<int>{4096, 17, 256});
  }
  SECTION("all options together")
  {
    const Parsed p = parse({"--sizes", "64", "--max-size", "300", "--precision", "float",
                            "--reps", "7", "--out", "/tmp/somewhere", "--quick",
                            "--cpu-only"});
    CHECK_FALSE(p.code.has_value());
    CHECK(p.err.empty());
    CHECK(p.options.sizes == std::vector<int>{64});
    CHECK(p.options.max_size == 300);
    CHECK(p.options.precision == "float");
    CHECK(p.options.reps == 7);
    CHECK(p.options.out == "/tmp/somewhere");
    CHECK(p.options.quick);
    CHECK(p.options.cpu_only);
  }
  SECTION("--precision double")
  {
    const Parsed p = parse({"--precision", "double"});
    CHECK_FALSE(p.code.has_value());
    CHECK(p.options.precision == "double");
  }
}

TEST_CASE("cli: a bad argument gives exit code 2, one error line naming it, the usage")
{
  struct Case
  {
    std::vector<std::string> args;
    std::string option; // the error line must name this
    std::string value;  // and this (the offending text)
  };
  const Case c = GENERATE(values<Case>({
    {{"--sizes", "abc"}, "--sizes", "abc"},
    {{"--sizes", "0"}, "--sizes", "0"},
    {{"--sizes", "2.5"}, "--sizes", "2.5"},
    {{"--sizes", "64,-3"}, "--sizes", "-3"},
    {{"--sizes", "64,x,128"}, "--sizes", "x"},
    // An empty size between, before or after the commas is a slip, not a list of two.
    {{"--sizes", "3,,4"}, "--sizes", "3,,4"},
    {{"--sizes", "3,"}, "--sizes", "3,"},
    {{"--sizes", ",3"}, "--sizes", ",3"},
    {{"--max-size", "0"}, "--max-size", "0"},
    {{"--precision", "half"}, "--precision", "half"},
    {{"--reps", "0"}, "--reps", "0"},
    {{"--reps", "ten"}, "--reps", "ten"},
    {{"--no-such-flag"}, "--no-such-flag", "--no-such-flag"},
  }));
  std::string command;
  for (const std::string &a : c.args)
    command += " " + a;
  INFO("step-x" << command);

  const Parsed p = parse(c.args);
  REQUIRE(p.code.has_value());
  CHECK(*p.code == 2);
  CHECK(p.out.empty());
  INFO("stderr:\n" << p.err);
  const std::vector<std::string> lines = lines_of(p.err);
  REQUIRE(lines.size() == 2);
  CHECK(starts_with(lines[0], "step-x: error: "));
  CHECK(contains(lines[0], c.option));
  CHECK(contains(lines[0], c.value));
  CHECK(starts_with(lines[1], "usage: step-x"));
  // The usage line lists the options with their value types.
  CHECK(contains(lines[1], "[--sizes N,N,...]"));
  CHECK(contains(lines[1], "[--precision float|double|both]"));
  CHECK(contains(lines[1], "[--quick]"));
  // Two lines, each ending in '\n' and nothing after.
  CHECK(p.err.back() == '\n');
}

TEST_CASE("cli: --help prints the options and gives exit code 0")
{
  const Parsed p = parse({"--help"});
  REQUIRE(p.code.has_value());
  CHECK(*p.code == 0);
  CHECK(p.err.empty());
  for (const char *option :
       {"--sizes", "--max-size", "--precision", "--reps", "--out", "--quick", "--cpu-only"})
    {
      INFO(option);
      CHECK(contains(p.out, option));
    }
  // The defaults are shown.
  CHECK(contains(p.out, "results/local"));
}

TEST_CASE("cli: choose_sizes")
{
  const std::vector<int> full = {64, 128, 256, 512};
  const std::vector<int> quick = {16, 32};
  lab::CommonOptions options;

  SECTION("the full sweep by default")
  {
    CHECK(lab::choose_sizes(options, full, quick) == full);
  }
  SECTION("the quick sweep under --quick")
  {
    options.quick = true;
    CHECK(lab::choose_sizes(options, full, quick) == quick);
  }
  SECTION("--max-size cuts the sweep and appends N when the sweep skips it")
  {
    options.max_size = 200;
    CHECK(lab::choose_sizes(options, full, quick) == std::vector<int>{64, 128, 200});
  }
  SECTION("--max-size equal to a sweep size is not repeated")
  {
    options.max_size = 256;
    CHECK(lab::choose_sizes(options, full, quick) == std::vector<int>{64, 128, 256});
  }
  SECTION("--max-size above the sweep extends it by doubling, then N")
  {
    options.max_size = 1000;
    CHECK(lab::choose_sizes(options, full, quick) ==
          std::vector<int>{64, 128, 256, 512, 1000});
    options.max_size = 1024;
    CHECK(lab::choose_sizes(options, full, quick) ==
          std::vector<int>{64, 128, 256, 512, 1024});
  }
  SECTION("--max-size below the whole sweep leaves N alone")
  {
    options.max_size = 10;
    CHECK(lab::choose_sizes(options, full, quick) == std::vector<int>{10});
  }
  SECTION("--max-size cuts the quick sweep under --quick")
  {
    options.quick = true;
    options.max_size = 20;
    CHECK(lab::choose_sizes(options, full, quick) == std::vector<int>{16, 20});
  }
  SECTION("explicit sizes win over --quick and --max-size, in their order")
  {
    options.sizes = {300, 7};
    options.quick = true;
    options.max_size = 100;
    CHECK(lab::choose_sizes(options, full, quick) == std::vector<int>{300, 7});
  }
  SECTION("through the command line")
  {
    const Parsed p = parse({"--quick", "--max-size", "24"});
    REQUIRE_FALSE(p.code.has_value());
    CHECK(lab::choose_sizes(p.options, full, quick) == std::vector<int>{16, 24});
  }
}

TEST_CASE("cli: wants_float and wants_double follow --precision")
{
  lab::CommonOptions options;
  CHECK(options.wants_float());
  CHECK(options.wants_double());
  options.precision = "float";
  CHECK(options.wants_float());
  CHECK_FALSE(options.wants_double());
  options.precision = "double";
  CHECK_FALSE(options.wants_float());
  CHECK(options.wants_double());

  const Parsed p = parse({"--precision", "float"});
  REQUIRE_FALSE(p.code.has_value());
  CHECK(p.options.wants_float());
  CHECK_FALSE(p.options.wants_double());
}
