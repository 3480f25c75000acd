#pragma once
// @sect3{The cases of the benchmark}
//
// What a user brings, as the course can make it: a sharp picture, a blur, noise, and
// a file. The sharp pictures are the phantom (black around a few flat shapes), the
// camera photograph (grass, a coat, buildings: texture everywhere) and the astronaut
// photograph (a face, a flag, fine print), all grey and square. The blurs are the
// invariant ones a lens or a shake makes (a Gaussian, a box, a one-sided trail) and
// the two fields (a lens whose corners are blurrier, a camera that turns), the turn
// made twice: by step-5's own field model, and physically (physical_rotation.h), to
// test that model against what it models. The noise is Gaussian of σ = 0.001 (a good
// camera in daylight), 0.01 and 0.03 (a dark room); the file 8 or 16 bits deep, the
// picture clipped to the range first, as every file is. Then the degraded picture is
// written as a PGM and read back: the benchmark restores what the file holds, like
// `step-5 --degraded`, and not the numbers before they were stored.

#include "model/psf_field.h"

#include <lab/matrix.h>

#include <string>
#include <vector>

namespace restore_benchmark
{
  struct Scene
  {
    std::string name;
    lab::Matrix<double> sharp;
  };

  // The sharp pictures at @p side (which divides 128 or is 256); the quick run takes
  // the phantom and the camera only, and two blurs. The astronaut needs libpng (its file is a PNG):
  // without it, it is left out, and the output says so.
  std::vector<Scene> scenes(int side, bool quick);

  struct Blur
  {
    std::string name;         // one word, for the table's legend
    std::string psf;          // the --psf text of the blur the restoration assumes
    double physical_turn = 0; // > 0: made by turning the picture through this many degrees
  };

  // The blurs, their sizes fitted to @p side (the rotation's streaks grow with it).
  std::vector<Blur> blurs(int side, bool quick);

  // The noise levels and file depths of each case.
  std::vector<double> noise_levels(bool quick);
  std::vector<int> file_bits(bool quick);

  // @p sharp blurred as @p blur says (its field @p field sampled for the size, or
  // physically), Gaussian noise of @p sigma drawn with @p seed, written to @p path as
  // a PGM of @p bits bits and read back.
  lab::Matrix<double> degraded_file(const lab::Matrix<double> &sharp, const Blur &blur,
                                    const step5::SampledField &field, double sigma, int bits, unsigned seed,
                                    const std::string &path);
} // namespace restore_benchmark
