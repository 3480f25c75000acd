// Tests of lab/matrix.h: the host matrix, its leading dimension and convert().
#include <lab/matrix.h>
#include <lab_catch.h>

#include <cmath>
#include <stdexcept>

TEST_CASE("matrix: a default matrix is empty")
{
  const lab::Matrix<double> m;
  CHECK(m.rows() == 0);
  CHECK(m.cols() == 0);
  CHECK(m.ld() == 0);
  CHECK(m.size() == 0);
}

TEST_CASE("matrix: construction gives zeros with ld = cols")
{
  const int rows = GENERATE(1, 2, 3, 17);
  const int cols = GENERATE(1, 4, 16);
  INFO("rows " << rows << ", cols " << cols);
  const lab::Matrix<float> m(rows, cols);
  CHECK(m.rows() == rows);
  CHECK(m.cols() == cols);
  CHECK(m.ld() == cols);
  CHECK(m.size() == static_cast<std::size_t>(rows) * cols);
  for (std::size_t i = 0; i < m.size(); ++i)
    {
      INFO("element " << i);
      CHECK(m.data()[i] == 0.0f);
    }
}

TEST_CASE("matrix: a padded leading dimension")
{
  lab::Matrix<double> m(3, 4, 6);
  CHECK(m.rows() == 3);
  CHECK(m.cols() == 4);
  CHECK(m.ld() == 6);
  CHECK(m.size() == 18u);
  // ld = 0 means ld = cols; ld = cols is the same.
  CHECK(lab::Matrix<double>(3, 4, 0).ld() == 4);
  CHECK(lab::Matrix<double>(3, 4, 4).ld() == 4);
}

TEST_CASE("matrix: entry (r, c) lives at data()[r * ld + c]")
{
  const int ld = GENERATE(0, 5, 9);
  lab::Matrix<double> m(4, 5, ld);
  const int stride = m.ld();
  INFO("ld " << stride);
  for (int r = 0; r < m.rows(); ++r)
    for (int c = 0; c < m.cols(); ++c)
      m(r, c) = 100 * r + c + 1;
  for (int r = 0; r < m.rows(); ++r)
    for (int c = 0; c < m.cols(); ++c)
      {
        INFO("r " << r << ", c " << c);
        CHECK(&m(r, c) == m.data() + r * stride + c);
        CHECK(m.data()[r * stride + c] == 100 * r + c + 1);
      }
  // The padding was not written.
  for (int r = 0; r < m.rows(); ++r)
    for (int c = m.cols(); c < stride; ++c)
      CHECK(m.data()[r * stride + c] == 0.0);
  // The const accessor reads the same place.
  const lab::Matrix<double> &cm = m;
  CHECK(&cm(3, 4) == m.data() + 3 * stride + 4);
  CHECK(cm(2, 1) == 202.0);
}

TEST_CASE("matrix: convert keeps the shape and the layout, padding included")
{
  lab::Matrix<double> d(3, 2, 5);
  for (std::size_t i = 0; i < d.size(); ++i)
    d.data()[i] = 0.1 * static_cast<double>(i) - 0.7;
  const lab::Matrix<float> f = lab::convert<float>(d);
  CHECK(f.rows() == 3);
  CHECK(f.cols() == 2);
  CHECK(f.ld() == 5);
  REQUIRE(f.size() == d.size());
  for (std::size_t i = 0; i < d.size(); ++i)
    {
      INFO("element " << i);
      CHECK(f.data()[i] == static_cast<float>(d.data()[i]));
    }
  // Back to double: exactly the float values.
  const lab::Matrix<double> back = lab::convert<double>(f);
  CHECK(back.ld() == 5);
  CHECK(back(2, 1) == static_cast<double>(f(2, 1)));
  CHECK(back(1, 0) != d(1, 0)); // 0.1 * 5 - 0.7 = -0.2 is not a float
  // Converting an empty matrix gives an empty one.
  const lab::Matrix<float> empty = lab::convert<float>(lab::Matrix<double>());
  CHECK(empty.size() == 0);
}

TEST_CASE("matrix: invalid shapes throw std::invalid_argument")
{
  CHECK_THROWS_AS(lab::Matrix<double>(-1, 2), std::invalid_argument);
  CHECK_THROWS_AS(lab::Matrix<double>(2, -1), std::invalid_argument);
  CHECK_THROWS_AS(lab::Matrix<float>(2, 3, 2), std::invalid_argument);
  CHECK_THROWS_AS(lab::Matrix<float>(2, 3, -1), std::invalid_argument);
  // Empty shapes are allowed.
  CHECK_NOTHROW(lab::Matrix<double>(0, 3));
  CHECK_NOTHROW(lab::Matrix<double>(3, 0));
  CHECK(lab::Matrix<double>(3, 0).size() == 0);
  CHECK(lab::Matrix<double>(0, 3, 7).size() == 0);
}

TEST_CASE("matrix: transposed swaps rows and columns")
{
  lab::Matrix<float> m(2, 3, 5);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      m(r, c) = float(10 * r + c);
  const lab::Matrix<float> t = lab::transposed(m);
  REQUIRE(t.rows() == 3);
  REQUIRE(t.cols() == 2);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      CHECK(t(c, r) == m(r, c));
}
