#pragma once
// @sect3{The photographs the course ships}
//
// step-5/data holds the "camera" photograph at 128² and 256² (data/README.md says
// where it comes from); the comparison for a PSF field and the restore benchmark use
// it at other sides too, shrunk.

#include <lab/matrix.h>

#include <string>

namespace step5
{
  // The folder of the course's photographs (set by the build; "step-5/data" from the
  // top of the source tree otherwise).
  std::string data_folder();

  // The mean of each factor × factor block: the whole scene at a smaller side.
  lab::Matrix<double> shrunk(const lab::Matrix<double> &image, int factor);

  // The camera photograph at @p side: the file at 128 and 256, the 128² one shrunk at
  // the sides that divide 128, and an empty image at any other side.
  lab::Matrix<double> photograph(int side);
} // namespace step5
