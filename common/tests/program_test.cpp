// Tests of lab/program.h: how a program's errors become exit codes.
#include <lab/program.h>
#include <lab_catch.h>

#include "test_support.h"

#include <iostream>
#include <stdexcept>

using lab_test::contains;
using lab_test::lines_of;

TEST_CASE("program: run_program returns the body's exit code")
{
  CHECK(lab::run_program("p", [] { return 0; }) == 0);
  CHECK(lab::run_program("p", [] { return 1; }) == 1);
}

TEST_CASE("program: refused input is exit code 2, a failure while working 1, one line each")
{
  std::string text;
  int code = -1;
  SECTION("bad_input")
  {
    lab_test::CaptureStream capture(std::cerr);
    code = lab::run_program("step-9", []() -> int { throw lab::bad_input("n = 7 is odd"); });
    text = capture.text();
    CHECK(code == 2);
    CHECK(text == "step-9: error: n = 7 is odd\n");
  }
  SECTION("any other exception")
  {
    lab_test::CaptureStream capture(std::cerr);
    code = lab::run_program("step-9", []() -> int { throw std::runtime_error("kernel failed"); });
    text = capture.text();
    CHECK(code == 1);
    CHECK(text == "step-9: error: kernel failed\n");
  }
  CHECK(lines_of(text).size() == 1);
}
