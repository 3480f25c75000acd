#pragma once
// Small helpers shared by the tests of lab_common: substring checks that read the same
// with Catch2 2 and 3, capturing an exception's message, temporary folders that clean
// up after themselves (testing/temp_dir.h, which the steps' tests share), a relative
// comparison of doubles, and the host reference of a product's error.

#include <lab/compare.h>
#include <lab/gemm.h>
#include <lab/matrix.h>
#include <lab/test_matrices.h>

#include <temp_dir.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace lab_test
{
  /// The worst error of a computed product @p result of C = α op(A) op(B) + β C (C as
  /// it was before: @p c_in), entry by entry in double on the host: max over (i, j) of
  /// lab::entry_error(result, reference, |α| (|op(A)| |op(B)|)_ij + |β| |C_ij|), the
  /// error relative to the size of what was summed, which rounding bounds by about
  /// k ε. NaN when any entry is NaN. The definition that the GPU's checks and cuBLAS's
  /// products are tested against.
  template <typename T>
  double host_product_error(const lab::GemmShape &s, T alpha, T beta, const lab::Matrix<T> &a,
                            const lab::Matrix<T> &b, const lab::Matrix<T> &c_in, const lab::Matrix<T> &result)
  {
    lab::GemmArgs<T> host;
    host.shape = s;
    host.a = a.data();
    host.lda = a.ld();
    host.b = b.data();
    host.ldb = b.ld();
    double worst = 0;
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.n; ++j)
        {
          double sum = 0, size = 0;
          for (int p = 0; p < s.k; ++p)
            {
              const double term = double(host.op_a(i, p)) * double(host.op_b(p, j));
              sum += term;
              size += std::abs(term);
            }
          const double reference = double(alpha) * sum + double(beta) * double(c_in(i, j));
          const double bound = std::abs(double(alpha)) * size + std::abs(double(beta)) * std::abs(double(c_in(i, j)));
          worst = lab::nan_max(worst, lab::entry_error(double(result(i, j)), reference, bound));
        }
    return worst;
  }

  /// A lower triangular L with diagonal in [1, 2) and entries below it in
  /// [-1/√n, 1/√n) (the rest 0), from @p seed, and A = L Lᵀ formed in double and
  /// rounded to T: L is then A's Cholesky factor up to A's rounding, and every row
  /// of both is of the same size, unlike the 2011 course's matrix, whose rows grow
  /// like n⁵. For the tests of the probes (lab/probes.h).
  template <typename T>
  lab::Matrix<T> well_scaled_factor(int n, unsigned seed)
  {
    lab::Matrix<T> l = lab::random_matrix<T>(n, n, seed);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        l(i, j) = j > i ? T(0) : j == i ? T(1.5 + 0.5 * double(l(i, j))) : T(double(l(i, j)) / std::sqrt(double(n)));
    return l;
  }
  template <typename T>
  lab::Matrix<T> times_transpose(const lab::Matrix<T> &l)
  {
    const int n = l.rows();
    lab::Matrix<T> a(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j)
        {
          double sum = 0;
          for (int k = 0; k <= j; ++k)
            sum += double(l(i, k)) * double(l(j, k));
          a(i, j) = a(j, i) = T(sum);
        }
    return a;
  }

  /// True when @p needle occurs in @p haystack.
  inline bool contains(const std::string &haystack, const std::string &needle)
  {
    return haystack.find(needle) != std::string::npos;
  }

  /// True when @p text begins with @p prefix.
  inline bool starts_with(const std::string &text, const std::string &prefix)
  {
    return text.compare(0, prefix.size(), prefix) == 0;
  }

  /// |a - b| <= relative * max(|a|, |b|); false when either is NaN.
  inline bool close(double a, double b, double relative)
  {
    return std::abs(a - b) <= relative * lab::nan_max(std::abs(a), std::abs(b));
  }

  /// Runs @p f and returns what() of the exception of type E it throws, or
  /// "<no exception>". Exceptions of other types propagate (and fail the test).
  template <typename E, typename F>
  std::string message_of(F &&f)
  {
    try
      {
        f();
      }
    catch (const E &e)
      {
        return e.what();
      }
    return "<no exception>";
  }

  /// Splits @p text into lines (without the '\n'); a last line without '\n' counts.
  inline std::vector<std::string> lines_of(const std::string &text)
  {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
      lines.push_back(line);
    return lines;
  }

  /// The whole content of a file.
  inline std::string read_text(const std::filesystem::path &path)
  {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  /// Writes @p text to @p path.
  inline void write_text(const std::filesystem::path &path, const std::string &text)
  {
    std::ofstream out(path);
    out << text;
  }

  /// Sends what is written to @p stream into a string while the object lives.
  class CaptureStream
  {
  public:
    explicit CaptureStream(std::ostream &stream)
      : stream_(stream), old_(stream.rdbuf(buffer_.rdbuf()))
    {}
    ~CaptureStream() { stream_.rdbuf(old_); }
    CaptureStream(const CaptureStream &) = delete;
    CaptureStream &operator=(const CaptureStream &) = delete;

    std::string text() const { return buffer_.str(); }

  private:
    std::ostream &stream_;
    std::ostringstream buffer_;
    std::streambuf *old_;
  };

  /// Sends what the program prints with printf (file descriptor 1) into a temporary
  /// file while the object lives; text() ends the capture and returns it. Call text()
  /// before any CHECK: Catch2 reports on the same descriptor.
  class CaptureStdout
  {
  public:
    CaptureStdout() : file_(std::tmpfile())
    {
      std::fflush(stdout);
      saved_ = dup(1);
      dup2(fileno(file_), 1);
    }
    ~CaptureStdout()
    {
      restore();
      std::fclose(file_);
    }
    CaptureStdout(const CaptureStdout &) = delete;
    CaptureStdout &operator=(const CaptureStdout &) = delete;

    std::string text()
    {
      restore();
      std::rewind(file_);
      std::string text;
      for (int c = std::fgetc(file_); c != EOF; c = std::fgetc(file_))
        text += static_cast<char>(c);
      return text;
    }

  private:
    void restore()
    {
      if (saved_ < 0)
        return;
      std::fflush(stdout);
      dup2(saved_, 1);
      ::close(saved_);
      saved_ = -1;
    }

    std::FILE *file_;
    int saved_ = -1;
  };
} // namespace lab_test
