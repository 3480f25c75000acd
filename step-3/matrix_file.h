#pragma once
// @sect3{Your own matrix}
//
// `--matrix FILE` inverts a matrix of your own instead of the sweep: a lower
// triangular one by the triangular lesson's routines (triangular/triangular_file.h),
// a general one with `--general` by Gauss–Jordan (gauss_jordan/general_file.h). The
// CPU goes first; every computation after it writes into a poisoned inverse and info
// (result_checks.h) and must report what the CPU reported: the same inverse within the
// tolerance, or the same singular column. Both programs read the file and report each
// computation here.

#include "result_checks.h"
#include "triangular/triangular_cpu.h"

#include <lab/checks.h>
#include <lab/device_buffer.h>
#include <lab/matrix_io.h>
#include <lab/program.h>
#include <lab/residuals.h>

#include <cstdio>
#include <string>

namespace step3
{
  // The square matrix in @p file; anything else is refused (lab::bad_input).
  template <typename T>
  lab::Matrix<T> read_square_matrix(const std::string &file)
  {
    const lab::Matrix<T> a = lab::read_matrix<T>(file);
    if (a.cols() != a.rows())
      throw lab::bad_input(file + ": the matrix is " + std::to_string(a.rows()) + " x " + std::to_string(a.cols()) +
                           ", not square");
    return a;
  }

  // The line of one computation on A, with its verdict against the CPU's @p expected
  // info: the column where it found A singular, or the residual of its inverse @p x.
  template <typename T>
  void report_file_result(lab::Checks &checks, const std::string &what, const lab::Matrix<T> &a,
                          const lab::Matrix<T> &x, int expected, int info)
  {
    const int n = a.rows();
    const double residual = info == 0 ? lab::inverse_residual(a, x, n) : 0;
    if (info != 0)
      std::printf("  %-30s singular: no usable pivot in column %d (info = %d)\n", what.c_str(), info - 1, info);
    else
      std::printf("  %-30s residual %.2e\n", what.c_str(), residual);
    judge_against_cpu(checks, what, expected, info, residual, file_tolerance<T>(n));
  }

  // The CPU's inverse of A, by @p invert (which returns its info), reported; returns
  // that info, which every computation after it must report too.
  template <typename T, typename Invert>
  int invert_on_cpu(lab::Checks &checks, const std::string &what, const lab::Matrix<T> &a, Invert invert)
  {
    lab::Matrix<T> x;
    const int info = invert(a, x);
    report_file_result(checks, what, a, x, info, info);
    return info;
  }

  // The same for a computation on the GPU, from the inverse @p x and the @p info it left
  // on the device; @p lower_only keeps the lower triangle of X (trtri leaves the upper
  // one of its input).
  template <typename T>
  void report_device_result(lab::Checks &checks, const std::string &what, const lab::Matrix<T> &a,
                            const lab::DeviceBuffer<T> &x, const lab::DeviceBuffer<int> &info, int expected,
                            bool lower_only = false)
  {
    lab::Matrix<T> inverse(a.rows(), a.rows());
    x.download(inverse);
    if (lower_only)
      inverse = lower_triangle(inverse);
    int status = -1;
    info.copy_to_host(&status, 1);
    report_file_result(checks, what, a, inverse, expected, status);
  }
} // namespace step3
