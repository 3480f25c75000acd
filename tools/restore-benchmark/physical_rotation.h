#pragma once
// @sect3{A rotation made the way a camera makes it}
//
// step-5's rotation field (psf_field.h) is a model: every pixel's PSF a straight
// streak along the tangent of its circle, as long as the arc the pixel travels. To
// test the model against the physics, the benchmark also makes the blur as the camera
// does: the sharp picture seen through every angle of the turn, averaged. A camera
// that turns by θ during the exposure at a steady rate sees, at each instant, the
// scene rotated by an angle between −θ/2 and θ/2 about the centre of the picture; the
// sensor adds them all up. Here the interval is cut into @p steps equal parts, the
// picture rotated by the angle at the middle of each (bilinear interpolation between
// the four nearest pixels, black outside the picture, as the zero boundary has it) and
// the rotations averaged. The streak model and this average differ in two ways the
// restoration has to live with: an arc is not a straight line, and the interpolation
// smooths a little of its own.

#include <lab/matrix.h>

namespace restore_benchmark
{
  // @p sharp turned through @p angle_degrees about ((R − 1)/2, (C − 1)/2) during the
  // exposure, averaged over @p steps angles.
  lab::Matrix<double> physically_rotated(const lab::Matrix<double> &sharp, double angle_degrees, int steps = 64);
} // namespace restore_benchmark
