// The cases of the benchmark (see benchmark_cases.h).
#include "benchmark_cases.h"

#include "physical_rotation.h"
#include "model/noise.h"
#include "model/varying_blur.h"
#include "photographs.h"

#include <lab/pgm.h>
#include <lab/picture.h>
#include <lab/png.h>
#include <lab/test_images.h>

#include <cmath>
#include <cstdio>

namespace restore_benchmark
{
  namespace
  {
    // A colour photograph as grey: the luma of ITU-R BT.601, the weights by which the
    // eye's sensitivity ranks red, green and blue.
    lab::Matrix<double> luma(const lab::Picture &picture)
    {
      if (!picture.is_colour())
        return picture.channels.front();
      const lab::Matrix<double> &red = picture.channels[0], &green = picture.channels[1], &blue = picture.channels[2];
      lab::Matrix<double> grey(picture.rows(), picture.cols());
      for (int r = 0; r < grey.rows(); ++r)
        for (int c = 0; c < grey.cols(); ++c)
          grey(r, c) = 0.299 * red(r, c) + 0.587 * green(r, c) + 0.114 * blue(r, c);
      return grey;
    }

    // The astronaut (512²) at a side that divides 512, by the mean of blocks.
    lab::Matrix<double> astronaut(int side)
    {
      const lab::Matrix<double> grey = luma(lab::read_picture(step5::data_folder() + "/astronaut.png"));
      return step5::shrunk(grey, grey.rows() / side);
    }
  } // namespace

  std::vector<Scene> scenes(int side, bool quick)
  {
    std::vector<Scene> list = {{"phantom", lab::shepp_logan(side)}, {"camera", step5::photograph(side)}};
    if (quick)
      return list;
    if (lab::have_png())
      list.push_back({"astronaut", astronaut(side)});
    else
      std::printf("astronaut: left out (its file is a PNG, and this build has no libpng)\n");
    return list;
  }

  // The rotation's field is drawn in a square of the longest streak, the corner's: the
  // radius (side − 1)/√2 times the turn in radians, rounded up to odd, at least 3.
  std::vector<Blur> blurs(int side, bool quick)
  {
    const double turn = 4;
    const double corner_streak = (side - 1) / std::sqrt(2.0) * turn / 180 * 3.14159265358979323846;
    const int size = std::max(3, 2 * static_cast<int>(std::ceil(corner_streak / 2)) + 1);
    const std::string rotation = "rotation:" + std::to_string(static_cast<int>(turn)) + ":" + std::to_string(size);
    if (quick)
      return {{"gaussian", "gaussian:1.5:9"}, {"rotation-physical", rotation, turn}};
    return {{"gaussian", "gaussian:1.5:9"}, {"box", "box:5"},         {"trail", "trail:7:30"},
            {"lens", "lens:1:3:9"},         {"rotation", rotation}, {"rotation-physical", rotation, turn}};
  }

  std::vector<double> noise_levels(bool quick)
  {
    return quick ? std::vector<double>{0.01} : std::vector<double>{0.001, 0.01, 0.03};
  }

  std::vector<int> file_bits(bool quick) { return quick ? std::vector<int>{16} : std::vector<int>{8, 16}; }

  lab::Matrix<double> degraded_file(const lab::Matrix<double> &sharp, const Blur &blur,
                                    const step5::SampledField &field, double sigma, int bits, unsigned seed,
                                    const std::string &path)
  {
    const lab::Matrix<double> blurred =
      blur.physical_turn > 0 ? physically_rotated(sharp, blur.physical_turn) : step5::blur(field, sharp);
    lab::write_pgm(path, lab::add_gaussian_noise(blurred, sigma, seed), bits);
    return lab::read_pgm(path);
  }
} // namespace restore_benchmark
