#pragma once
// @sect3{The table of a PSF field}
//
// One row per image restored through a field (each size of the phantom and of the
// photograph, or the one image of restore-only): what image it was, λ, the degraded
// image's PSNR, then every method of varying_restoration.h twice, its PSNR (dB) and
// its time (ms), NaN where it did not run, and the iterations of the two CG runs (the
// field's and the mean PSF's), which say how much of CG's time ratio is the number of
// iterations and how much the cost of one. Written as varying_KIND_PRECISION.dat.

#include "methods/method_result.h"

#include <lab/device.h>
#include <lab/matrix.h>
#include <lab/table.h>

#include <string>
#include <vector>

namespace step5
{
  // Which image a row is about (the table's "image" column).
  enum class VaryingImage
  {
    phantom = 0,
    photograph = 1,
    given = 2 // --image or --degraded
  };

  class VaryingTable
  {
  public:
    VaryingTable();

    // One row for @p degraded restored with λ = @p lambda into @p results; the PSNR
    // columns are NaN when @p original is empty.
    void add(VaryingImage image, double lambda, const lab::Matrix<double> &original,
             const lab::Matrix<double> &degraded, const std::vector<MethodResult> &results);

    // Writes @p path (…/varying_KIND_PRECISION.dat), its header naming @p device, @p reps
    // and the @p notes (the field, the noise, λ, the regions).
    void write(const std::string &path, const std::string &precision, const lab::DeviceInfo &device, int reps,
               const std::vector<std::string> &notes) const;

  private:
    lab::Table table_;
  };
} // namespace step5
