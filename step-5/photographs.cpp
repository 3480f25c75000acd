// The photographs the course ships (see photographs.h).
#include "photographs.h"

#include <lab/pgm.h>

#ifndef STEP5_DATA_DIR
#define STEP5_DATA_DIR "step-5/data"
#endif

namespace step5
{
  std::string data_folder() { return STEP5_DATA_DIR; }

  lab::Matrix<double> shrunk(const lab::Matrix<double> &image, int factor)
  {
    lab::Matrix<double> small(image.rows() / factor, image.cols() / factor);
    for (int r = 0; r < small.rows(); ++r)
      for (int c = 0; c < small.cols(); ++c)
        {
          double sum = 0;
          for (int i = 0; i < factor; ++i)
            for (int j = 0; j < factor; ++j)
              sum += image(r * factor + i, c * factor + j);
          small(r, c) = sum / (factor * factor);
        }
    return small;
  }

  lab::Matrix<double> photograph(int side)
  {
    if (side == 256)
      return lab::read_pgm(data_folder() + "/camera_256.pgm");
    if (side <= 128 && 128 % side == 0)
      return shrunk(lab::read_pgm(data_folder() + "/camera_128.pgm"), 128 / side);
    return {};
  }
} // namespace step5
