#pragma once
// @sect3{The tables}
//
// One row per image; every method has a column in the times table and one in the
// quality table (NaN where it did not run), and each pipeline its stages: the tables
// the plots are made from (plot.gp).

#include "methods/method_result.h"

#include <lab/device.h>
#include <lab/matrix.h>
#include <lab/table.h>

#include <string>
#include <vector>

namespace step5
{
  class Tables
  {
  public:
    Tables();

    // One row in each table for the image @p degraded restored with λ = @p lambda
    // into @p results; the PSNR columns are NaN when @p original is empty.
    void add(double lambda, const lab::Matrix<double> &original, const lab::Matrix<double> &degraded,
             const std::vector<MethodResult> &results);

    // Writes the three tables as @p path followed by times_, quality_ and stages_, the
    // precision and .dat, their headers naming @p device, @p reps and the @p notes
    // (the PSF, the noise, λ).
    void write(const std::string &path, const std::string &precision, const lab::DeviceInfo &device, int reps,
               const std::vector<std::string> &notes) const;

  private:
    lab::Table times_, quality_, stages_;
  };
} // namespace step5
