// Tests of lab/matrix_io.h: matrices from text files.
#include <lab/matrix_io.h>
#include <lab/program.h>
#include <lab_catch.h>

#include "test_support.h"

#include <limits>
#include <stdexcept>
#include <string>

using lab_test::contains;
using lab_test::TempDir;
using lab_test::write_text;

TEST_CASE("matrix_io: a 3 x 3 matrix with comments and blank lines")
{
  TempDir dir;
  const std::string path = (dir / "m.txt").string();
  write_text(path, "# a 3 x 3 matrix that is symmetric but not positive definite\n"
                   "\n"
                   " 4  2  0\n"
                   "   # an indented comment\n"
                   "2\t1   3.5e0\n"
                   "\n"
                   "  \t \n"
                   "0 -3 5.25\n");
  const lab::Matrix<double> m = lab::read_matrix<double>(path);
  REQUIRE(m.rows() == 3);
  REQUIRE(m.cols() == 3);
  CHECK(m.ld() == 3);
  const double expected[3][3] = {{4, 2, 0}, {2, 1, 3.5}, {0, -3, 5.25}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      {
        INFO("(" << r << ", " << c << ")");
        CHECK(m(r, c) == expected[r][c]);
      }

  const lab::Matrix<float> f = lab::read_matrix<float>(path);
  REQUIRE(f.rows() == 3);
  REQUIRE(f.cols() == 3);
  CHECK(f(2, 2) == 5.25f);
  CHECK(f(1, 0) == 2.0f);
}

TEST_CASE("matrix_io: a rectangular matrix and a file without a final newline")
{
  TempDir dir;
  const std::string path = (dir / "r.txt").string();
  write_text(path, "1 2 3 4\r\n5 6 7 0.125");
  const lab::Matrix<double> m = lab::read_matrix<double>(path);
  REQUIRE(m.rows() == 2);
  REQUIRE(m.cols() == 4);
  CHECK(m(0, 3) == 4.0);
  CHECK(m(1, 0) == 5.0);
  CHECK(m(1, 3) == 0.125);
}

TEST_CASE("matrix_io: ragged rows throw, naming file and line")
{
  TempDir dir;
  const std::string path = (dir / "ragged.txt").string();
  write_text(path, "# comment\n1 2 3\n\n4 5\n6 7 8\n");
  const std::string message =
    lab_test::message_of<std::runtime_error>([&] { lab::read_matrix<double>(path); });
  INFO(message);
  CHECK(contains(message, path + ":4"));
  CHECK(contains(message, "2 numbers"));
  CHECK(contains(message, "has 3"));
  CHECK(message.find('\n') == std::string::npos);
  CHECK_THROWS_AS(lab::read_matrix<float>(path), std::runtime_error);
}

TEST_CASE("matrix_io: a token that is not a number throws, naming it")
{
  const std::string token = GENERATE(as<std::string>{}, "abc", "1.5x", "1,5", "--");
  INFO("token " << token);
  TempDir dir;
  const std::string path = (dir / "bad.txt").string();
  write_text(path, "1 2\n3 " + token + "\n");
  const std::string message =
    lab_test::message_of<std::runtime_error>([&] { lab::read_matrix<double>(path); });
  INFO(message);
  CHECK(contains(message, "'" + token + "'"));
  CHECK(contains(message, path + ":2"));
}

TEST_CASE("matrix_io: a missing file throws, naming it")
{
  TempDir dir;
  const std::string path = (dir / "no-such-file.txt").string();
  const std::string message =
    lab_test::message_of<std::runtime_error>([&] { lab::read_matrix<double>(path); });
  CHECK(contains(message, path));
}

TEST_CASE("matrix_io: a file without numbers throws")
{
  TempDir dir;
  const std::string path = (dir / "empty.txt").string();
  SECTION("empty")
  {
    write_text(path, "");
  }
  SECTION("only comments and blank lines")
  {
    write_text(path, "# nothing here\n\n   \n# still nothing\n");
  }
  const std::string message =
    lab_test::message_of<std::runtime_error>([&] { lab::read_matrix<double>(path); });
  CHECK(contains(message, path));
  CHECK(contains(message, "no numbers"));
}

TEST_CASE("matrix_io: tiny numbers are read, infinite ones refused")
{
  TempDir dir;
  const std::string path = (dir / "range.txt").string();
  write_text(path, "1e-310 1\n1 2\n");
  const lab::Matrix<double> m = lab::read_matrix<double>(path);
  CHECK(m(0, 0) > 0);
  CHECK(m(0, 0) < 1e-300);

  write_text(path, "1e999 1\n1 2\n");
  const std::string message =
    lab_test::message_of<std::runtime_error>([&] { lab::read_matrix<double>(path); });
  INFO(message);
  CHECK(contains(message, "'1e999' is not a finite number"));
}

TEST_CASE("matrix_io: read_symmetric_matrix refuses non-square and unsymmetric matrices")
{
  TempDir dir;
  const std::string path = (dir / "m.txt").string();
  write_text(path, "1 2\n2 5\n");
  CHECK(lab::read_symmetric_matrix<double>(path)(1, 0) == 2);
  write_text(path, "1 2 3\n2 5 6\n");
  CHECK(contains(lab_test::message_of<lab::bad_input>([&] { lab::read_symmetric_matrix<double>(path); }),
                 "the matrix is 2 x 3, Cholesky needs a square one"));
  write_text(path, "1 2 0\n2 5 1\n0 1.5 3\n");
  CHECK(contains(lab_test::message_of<lab::bad_input>([&] { lab::read_symmetric_matrix<float>(path); }),
                 "not symmetric (entry (2,1) differs from (1,2))"));
}

TEST_CASE("matrix_io: a number the precision cannot hold is refused, naming line and value")
{
  // 1e39 is a finite double but beyond the largest float (3.4e38): converted, it would
  // be infinity, and the factorisation would report NaN instead of the real problem.
  TempDir dir;
  const std::string path = (dir / "large.txt").string();
  write_text(path, "# a comment line\n1 0\n0 1e39\n");
  const lab::Matrix<double> m = lab::read_matrix<double>(path);
  CHECK(m(1, 1) == 1e39);
  const std::string message =
    lab_test::message_of<lab::bad_input>([&] { lab::read_matrix<float>(path); });
  INFO(message);
  CHECK(contains(message, path + ":3: '1e39' does not fit in float"));
  write_text(path, "-3.5e38\n");
  CHECK(contains(lab_test::message_of<lab::bad_input>([&] { lab::read_matrix<float>(path); }),
                 "'-3.5e38' does not fit in float"));
  write_text(path, "3.4e38\n");
  CHECK(lab::read_matrix<float>(path)(0, 0) == 3.4e38f);
}
