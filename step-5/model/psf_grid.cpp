// A grid of measured PSFs (see psf_grid.h).
#include "model/psf_grid.h"

#include <lab/program.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace step5
{
  namespace
  {
    using description::text_of;

    // A grid is measured at a few points: 100 a side would be 10 000 measurements. A
    // PSF's side is limited as in psf.cpp.
    constexpr int largest_grid_side = 100;
    constexpr int largest_psf_side = 99;

    std::string size_text(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

    std::string point_text(int i, int j) { return "PSF (" + std::to_string(i) + ", " + std::to_string(j) + ")"; }

    void require_count(int value, int largest, const std::string &what)
    {
      if (value < 1 || value > largest)
        throw lab::bad_input(what + " must be from 1 to " + std::to_string(largest) + ", not " +
                             std::to_string(value));
    }

    // @sect3{What a grid must satisfy}
    //
    // Each check throws lab::bad_input with the reason alone; the file's reader adds
    // the file and the line, make_psf_grid the grid's name.

    // Positions that cover the image: fractions from 0 to 1, each after the one before.
    // Written so that NaN fails: every comparison with NaN is false.
    void check_positions(const std::vector<double> &at, const std::string &which)
    {
      require_count(static_cast<int>(at.size()), largest_grid_side, "the number of grid " + which + "s");
      for (std::size_t k = 0; k < at.size(); ++k)
        {
          if (!(at[k] >= 0 && at[k] <= 1))
            throw lab::bad_input("the " + which + " position " + text_of(at[k]) +
                                 " is not in the image (positions are fractions from 0 to 1)");
          if (k > 0 && !(at[k] > at[k - 1]))
            throw lab::bad_input("the " + which + " positions must increase, and " + text_of(at[k]) + " follows " +
                                 text_of(at[k - 1]));
        }
    }

    // A grid PSF of the grid's picture, finite weights, summing to more than rounding
    // above zero (judged against the weights' size, as check_psf judges a zero sum).
    void check_grid_psf(const Psf &psf, int rows, int cols)
    {
      if (psf.rows() != rows || psf.cols() != cols)
        throw lab::bad_input("it is " + size_text(psf.rows(), psf.cols()) + ", the grid's first " +
                             size_text(rows, cols) + ": every PSF of a grid has the same picture");
      for (int u = 0; u < psf.rows(); ++u)
        for (int v = 0; v < psf.cols(); ++v)
          if (!std::isfinite(psf.taps(u, v)))
            throw lab::bad_input("its weight (" + std::to_string(u) + ", " + std::to_string(v) + ") is " +
                                 text_of(psf.taps(u, v)) + ", not a finite number");
      const double sum = weight_sum(psf);
      if (!(sum > 1e-12 * absolute_sum(psf)))
        throw lab::bad_input("its weights sum to " + text_of(sum) +
                             ": a measured PSF must sum to a number > 0 (it is divided by its sum)");
    }
  } // namespace

  void check_psf_grid(const PsfGrid &grid)
  {
    try
      {
        check_positions(grid.row_at, "row");
        check_positions(grid.col_at, "column");
        if (grid.psfs.size() != grid.row_at.size() * grid.col_at.size())
          throw lab::bad_input(std::to_string(grid.psfs.size()) + " PSFs for " +
                               size_text(grid.grid_rows(), grid.grid_cols()) + " points");
        require_count(grid.psf_rows(), largest_psf_side, "the PSFs' rows");
        require_count(grid.psf_cols(), largest_psf_side, "the PSFs' columns");
        for (int i = 0; i < grid.grid_rows(); ++i)
          for (int j = 0; j < grid.grid_cols(); ++j)
            try
              {
                check_grid_psf(grid.psf(i, j), grid.psf_rows(), grid.psf_cols());
              }
            catch (const lab::bad_input &problem)
              {
                throw lab::bad_input(point_text(i, j) + ": " + problem.what());
              }
      }
    catch (const lab::bad_input &problem)
      {
        throw lab::bad_input("the PSF grid '" + grid.name + "': " + problem.what());
      }
  }

  PsfGrid make_psf_grid(std::vector<double> row_at, std::vector<double> col_at, std::vector<Psf> psfs,
                        const std::string &name)
  {
    PsfGrid grid{std::move(row_at), std::move(col_at), std::move(psfs), name};
    check_psf_grid(grid);
    for (Psf &psf : grid.psfs)
      {
        const double sum = weight_sum(psf);
        for (int u = 0; u < psf.rows(); ++u)
          for (int v = 0; v < psf.cols(); ++v)
            psf.taps(u, v) /= sum;
      }
    return grid;
  }

  // @sect3{Reading the file}
  //
  // A small reader that knows which line it is on, so that every refusal names it.
  namespace
  {
    const std::string header_form = "psf-grid GRID_ROWS GRID_COLS PSF_ROWS PSF_COLS";

    // The words of the lines that are not blank or comments, one line at a time.
    class GridFile
    {
    public:
      explicit GridFile(const std::string &path) : path_(path), in_(path) {}

      bool opened() const { return static_cast<bool>(in_); }

      // The next line's words; none at the end of the file.
      std::vector<std::string> next_line()
      {
        std::string line;
        while (std::getline(in_, line))
          {
            ++line_;
            std::istringstream stream(line);
            std::vector<std::string> words;
            for (std::string word; stream >> word;)
              words.push_back(word);
            if (!words.empty() && words.front()[0] != '#')
              return words;
          }
        return {};
      }

      int line() const { return line_; }

      [[noreturn]] void refuse(const std::string &reason, int line) const
      {
        throw lab::bad_input(path_ + ":" + std::to_string(line) + ": " + reason);
      }
      [[noreturn]] void refuse(const std::string &reason) const { refuse(reason, line_); }

      // Runs @p check; a lab::bad_input it throws is refused at @p line.
      template <typename Check>
      auto checked(int line, Check &&check) const -> decltype(check())
      {
        try
          {
            return check();
          }
        catch (const lab::bad_input &problem)
          {
            refuse(problem.what(), line);
          }
      }

    private:
      std::string path_;
      std::ifstream in_;
      int line_ = 0;
    };

    std::string text_of_line(const std::vector<std::string> &words)
    {
      std::string text;
      for (const std::string &word : words)
        text += (text.empty() ? "" : " ") + word;
      return text;
    }

    // A word that must be a finite number, as in a PSF file.
    double finite_number(const std::string &word, const std::string &what)
    {
      const double value = description::number_in(word, what);
      if (!std::isfinite(value))
        throw lab::bad_input(what + " '" + word + "' is not a finite number");
      return value;
    }

    struct Header
    {
      int grid_rows, grid_cols, psf_rows, psf_cols;
    };

    Header read_header(GridFile &file)
    {
      const std::vector<std::string> words = file.next_line();
      if (words.size() != 5 || words[0] != "psf-grid")
        file.refuse("the header must be '" + header_form + "', not '" + text_of_line(words) + "'");
      return file.checked(file.line(), [&] {
        const char *names[] = {"GRID_ROWS", "GRID_COLS", "PSF_ROWS", "PSF_COLS"};
        int numbers[4];
        for (int k = 0; k < 4; ++k)
          {
            numbers[k] = description::whole_number_in(words[k + 1], names[k]);
            require_count(numbers[k], k < 2 ? largest_grid_side : largest_psf_side, names[k]);
          }
        return Header{numbers[0], numbers[1], numbers[2], numbers[3]};
      });
    }

    // The line `KEYWORD P_0 … P_{count−1}`: where the grid's rows or columns lie.
    std::vector<double> read_positions(GridFile &file, const std::string &keyword, const std::string &which,
                                       int count)
    {
      const std::vector<std::string> words = file.next_line();
      const std::string expected = "'" + keyword + "' and the " + std::to_string(count) + " grid " + which +
                                   " positions";
      if (words.empty())
        file.refuse("the file ends before the line of " + expected);
      if (words[0] != keyword)
        file.refuse("expected " + expected + ", not '" + text_of_line(words) + "'");
      if (static_cast<int>(words.size()) - 1 != count)
        file.refuse(std::to_string(words.size() - 1) + " " + which + " positions, but the header names " +
                    std::to_string(count) + " grid " + which + "s");
      return file.checked(file.line(), [&] {
        std::vector<double> at;
        for (std::size_t k = 1; k < words.size(); ++k)
          at.push_back(finite_number(words[k], "the " + which + " position"));
        check_positions(at, which);
        return at;
      });
    }

    // `psf I J` and the PSF's rows.
    Psf read_grid_psf(GridFile &file, const Header &header, int i, int j)
    {
      const std::string point = point_text(i, j), picture = size_text(header.psf_rows, header.psf_cols);
      const std::vector<std::string> label = file.next_line();
      const std::vector<std::string> expected = {"psf", std::to_string(i), std::to_string(j)};
      if (label.empty())
        file.refuse("the file ends before " + point + ": the header names " +
                    size_text(header.grid_rows, header.grid_cols) + " PSFs");
      if (label != expected)
        file.refuse("expected 'psf " + std::to_string(i) + " " + std::to_string(j) +
                    "' (the PSFs come grid row by grid row), not '" + text_of_line(label) + "'");
      const int label_line = file.line();
      Psf psf{lab::Matrix<double>(header.psf_rows, header.psf_cols), point};
      for (int u = 0; u < header.psf_rows; ++u)
        {
          const std::vector<std::string> row = file.next_line();
          const std::string rows_read = point + " has " + std::to_string(u) + " of its " +
                                        std::to_string(header.psf_rows) + " rows";
          if (row.empty())
            file.refuse("the file ends, and " + rows_read);
          if (row[0] == "psf")
            file.refuse(rows_read + ": every PSF of the grid is " + picture);
          if (static_cast<int>(row.size()) != header.psf_cols)
            file.refuse(point + " row " + std::to_string(u) + " has " + std::to_string(row.size()) +
                        " numbers: every PSF of the grid is " + picture);
          file.checked(file.line(), [&] {
            for (int v = 0; v < header.psf_cols; ++v)
              psf.taps(u, v) = finite_number(row[v], "the weight");
          });
        }
      file.checked(label_line, [&] {
        try
          {
            check_grid_psf(psf, header.psf_rows, header.psf_cols);
          }
        catch (const lab::bad_input &problem)
          {
            throw lab::bad_input(point + ": " + problem.what());
          }
      });
      return psf;
    }
  } // namespace

  bool is_psf_grid_file(const std::string &path)
  {
    GridFile file(path);
    if (!file.opened())
      return false;
    const std::vector<std::string> words = file.next_line();
    return !words.empty() && words.front() == "psf-grid";
  }

  PsfGrid read_psf_grid(const std::string &path)
  {
    GridFile file(path);
    if (!file.opened())
      throw lab::bad_input("cannot read the PSF grid file '" + path + "'");
    const Header header = read_header(file);
    std::vector<double> row_at = read_positions(file, "rows", "row", header.grid_rows);
    std::vector<double> col_at = read_positions(file, "cols", "column", header.grid_cols);
    std::vector<Psf> psfs;
    for (int i = 0; i < header.grid_rows; ++i)
      for (int j = 0; j < header.grid_cols; ++j)
        psfs.push_back(read_grid_psf(file, header, i, j));
    const std::vector<std::string> more = file.next_line();
    if (!more.empty())
      file.refuse("more than the header's " + size_text(header.grid_rows, header.grid_cols) + " PSFs of " +
                  size_text(header.psf_rows, header.psf_cols) + ": '" + text_of_line(more) + "'");
    return make_psf_grid(std::move(row_at), std::move(col_at), std::move(psfs),
                         "grid " + size_text(header.grid_rows, header.grid_cols) + " of " +
                           size_text(header.psf_rows, header.psf_cols) + " psfs, file " + path);
  }

  // @sect3{Writing it}
  void write_psf_grid(const PsfGrid &grid, const std::string &path)
  {
    std::FILE *out = std::fopen(path.c_str(), "w");
    if (!out)
      throw lab::bad_input("cannot write the PSF grid file '" + path + "'");
    std::fprintf(out, "psf-grid %d %d %d %d\n# %s\n", grid.grid_rows(), grid.grid_cols(), grid.psf_rows(),
                 grid.psf_cols(), grid.name.c_str());
    const auto write_positions = [&](const char *keyword, const std::vector<double> &at) {
      std::fprintf(out, "%s", keyword);
      for (const double position : at)
        std::fprintf(out, " %.17g", position);
      std::fprintf(out, "\n");
    };
    write_positions("rows", grid.row_at);
    write_positions("cols", grid.col_at);
    for (int i = 0; i < grid.grid_rows(); ++i)
      for (int j = 0; j < grid.grid_cols(); ++j)
        {
          std::fprintf(out, "psf %d %d\n", i, j);
          const Psf &psf = grid.psf(i, j);
          for (int u = 0; u < psf.rows(); ++u)
            for (int v = 0; v < psf.cols(); ++v)
              std::fprintf(out, "%.17g%c", psf.taps(u, v), v + 1 < psf.cols() ? ' ' : '\n');
        }
    if (std::fclose(out) != 0)
      throw lab::bad_input("cannot write the PSF grid file '" + path + "'");
  }

  // @sect3{The PSF of one pixel}
  //
  // Along each side, the grid points on either side of the pixel and how far it lies
  // from the first towards the second (0 at the first, 1 at the second); beyond the
  // outermost point, that point alone. The PSF is then interpolated in the form
  // a + t (b − a), not (1 − t) a + t b: the same numbers, but a grid whose PSFs are
  // all the same gives that PSF exactly (b − a = 0), and a pixel on a grid point its
  // point's PSF exactly (t = 0), where (1 − t) a + t a can differ from a by rounding.
  namespace
  {
    struct Between
    {
      int first, second; // the grid points on either side (the same beyond the outermost)
      double t;          // how far from first towards second, 0 … 1
    };

    Between between(const std::vector<double> &at, double position)
    {
      const int last = static_cast<int>(at.size()) - 1;
      if (!(position > at.front()))
        return {0, 0, 0.0};
      if (!(position < at.back()))
        return {last, last, 0.0};
      const int second = static_cast<int>(std::upper_bound(at.begin(), at.end(), position) - at.begin());
      const int first = second - 1;
      return {first, second, (position - at[first]) / (at[second] - at[first])};
    }
  } // namespace

  double position_of_pixel(int pixel, int side) { return side > 1 ? double(pixel) / (side - 1) : 0.5; }

  Psf interpolated_psf(const PsfGrid &grid, int r, int c, int image_rows, int image_cols)
  {
    const Between down = between(grid.row_at, position_of_pixel(r, image_rows));
    const Between across = between(grid.col_at, position_of_pixel(c, image_cols));
    const Psf &top_left = grid.psf(down.first, across.first), &top_right = grid.psf(down.first, across.second);
    const Psf &bottom_left = grid.psf(down.second, across.first),
              &bottom_right = grid.psf(down.second, across.second);
    Psf psf{lab::Matrix<double>(grid.psf_rows(), grid.psf_cols()), grid.name};
    for (int u = 0; u < psf.rows(); ++u)
      for (int v = 0; v < psf.cols(); ++v)
        {
          const double top = top_left.taps(u, v) + across.t * (top_right.taps(u, v) - top_left.taps(u, v));
          const double bottom =
            bottom_left.taps(u, v) + across.t * (bottom_right.taps(u, v) - bottom_left.taps(u, v));
          psf.taps(u, v) = top + down.t * (bottom - top);
        }
    return psf;
  }
} // namespace step5
