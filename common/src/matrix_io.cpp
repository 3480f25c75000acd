#include <lab/matrix_io.h>

#include <lab/program.h>
#include <lab/precision.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace lab
{
  template <typename T>
  Matrix<T> read_matrix(const std::string &path)
  {
    std::ifstream in(path);
    if (!in)
      throw bad_input("cannot read the matrix file '" + path + "'");

    const char *type_name = lab::precision_name<T>();
    const char *largest = sizeof(T) == 4 ? "3.4e38" : "1.8e308";
    std::vector<std::vector<double>> rows;
    std::string line;
    for (int line_number = 1; std::getline(in, line); ++line_number)
      {
        std::istringstream words(line);
        std::string word;
        std::vector<double> row;
        while (words >> word)
          {
            if (row.empty() && word[0] == '#')
              break;
            const std::string where = path + ":" + std::to_string(line_number) + ": '" + word;
            // strtod reads the longest number at the start of the word; anything left
            // over means the word was not a number. It accepts values too small for a
            // normal double (they become denormal or zero) and returns infinity for
            // values too large, which we refuse.
            char *end = nullptr;
            const double value = std::strtod(word.c_str(), &end);
            if (end != word.c_str() + word.size())
              throw bad_input(where + "' is not a number");
            if (std::isinf(value) || std::isnan(value))
              throw bad_input(where + "' is not a finite number");
            // A double can hold 1e39, a float cannot: converted, it would become
            // infinity, and the factorisation NaN. Refuse it here, where we can say
            // which number it was.
            if (std::abs(value) > double(std::numeric_limits<T>::max()))
              throw bad_input(where + "' does not fit in " + type_name +
                              " (largest " + largest + ")");
            row.push_back(value);
          }
        if (row.empty())
          continue;
        if (!rows.empty() && row.size() != rows.front().size())
          throw bad_input(path + ":" + std::to_string(line_number) + ": " +
                                   std::to_string(row.size()) + " numbers, but the first row has " +
                                   std::to_string(rows.front().size()));
        rows.push_back(std::move(row));
      }
    if (rows.empty())
      throw bad_input("the matrix file '" + path + "' holds no numbers");

    Matrix<T> m(static_cast<int>(rows.size()), static_cast<int>(rows.front().size()));
    for (int i = 0; i < m.rows(); ++i)
      for (int j = 0; j < m.cols(); ++j)
        m(i, j) = static_cast<T>(rows[i][j]);
    return m;
  }

  template <typename T>
  Matrix<T> read_symmetric_matrix(const std::string &path)
  {
    Matrix<T> a = read_matrix<T>(path);
    const int n = a.rows();
    if (a.cols() != n)
      throw bad_input(path + ": the matrix is " + std::to_string(n) + " x " +
                      std::to_string(a.cols()) + ", Cholesky needs a square one");
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j)
        if (a(i, j) != a(j, i))
          throw bad_input(path + ": the matrix is not symmetric (entry (" + std::to_string(i) +
                          "," + std::to_string(j) + ") differs from (" + std::to_string(j) +
                          "," + std::to_string(i) + "))");
    return a;
  }

  template Matrix<float> read_symmetric_matrix<float>(const std::string &);
  template Matrix<double> read_symmetric_matrix<double>(const std::string &);
  template Matrix<float> read_matrix<float>(const std::string &);
  template Matrix<double> read_matrix<double>(const std::string &);
} // namespace lab
