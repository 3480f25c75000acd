#pragma once
// @sect3{What the program prints and writes}
//
// For each image: one line per method (its time, PSNR against the original when it is
// known, how well it solved the equations, and the check), the pipelines' stages,
// and the images themselves (16-bit PGM, and PNG where the build has libpng); the
// tables that the plots are made from are tables.h's.

#include "methods/method_result.h"
#include "report/checks.h"

#include <lab/checks.h>
#include <lab/matrix.h>
#include <lab/picture.h>

#include <string>
#include <vector>

namespace step5
{
  // Prints one line per method and records its check (checks.h) in @p checks under
  // @p label; the PSNR column is left out when @p original is empty.
  void report_methods(const std::vector<MethodResult> &results, const lab::Matrix<double> &original,
                      const lab::Matrix<double> &degraded, const Tolerances &tolerances, const std::string &label,
                      lab::Checks &checks);

  // The line that closes an image's report: λ, how it was chosen (@p rule: "by the
  // discrepancy principle", say), and, where the original is known, what restoring
  // gained over the degraded image in dB of PSNR. The restored PSNR is that of the
  // first method that solved the exact equations (every such method agrees to about
  // 0.01 dB); the FFT filters, on another model, do not count.
  //
  // Where the original is known (the phantom, an image this program degraded, a
  // --reference), that gain is also a check, recorded in @p checks under @p label: a
  // restoration worse than the image it was given is a failure of the program,
  // whatever every method's equations say about themselves, and exits with code 1.
  // Every solve can be right and the restoration still worse than its input: a λ
  // chosen far too small hands back the noise, amplified.
  void report_gain(const std::vector<MethodResult> &results, const lab::Matrix<double> &original,
                   const lab::Matrix<double> &degraded, double lambda, const std::string &rule,
                   const std::string &label, lab::Checks &checks);

  // @p image as PATH.pgm and, where the build can write PNG, PATH.png.
  void write_image(const std::string &path_without_extension, const lab::Matrix<double> &image);

  // Writes original (if known), degraded and every method's image into @p folder as
  // PREFIX_NAME.pgm (and .png).
  void write_images(const std::string &folder, const std::string &prefix, const lab::Matrix<double> &original,
                    const lab::Matrix<double> &degraded, const std::vector<MethodResult> &results);

  // @sect3{A colour picture}
  //
  // A colour picture is restored with one λ for its three channels (image_lambda.h),
  // its direct methods on the three together and the others channel by channel
  // (channels_together.h), and each channel is reported as a grey image of its own.
  // Then the three restorations of each method are put back together: written as a
  // 16-bit PPM and a PNG under @p folder as PREFIX_NAME (the original and the
  // degraded picture too), and judged over all three channels, by the PSNR of the
  // mean of the three mean squared errors, beside the picture's time (the channels'
  // times added up, or the one run's that restored them together). @p channels holds each
  // channel's results (for one precision), in the order red, green, blue; the line
  // closing the picture checks, as report_gain does for a channel, that the first
  // method of the exact equations restored it above the degraded picture, where
  // @p original is known (it has no channels otherwise).
  void report_colour(const std::string &folder, const std::string &prefix, const lab::Picture &original,
                     const lab::Picture &degraded, const std::vector<std::vector<MethodResult>> &channels,
                     const std::string &label, lab::Checks &checks);

  // @p picture as PATH.pgm or PATH.ppm (16 bits) and, where the build can write PNG,
  // PATH.png (8 bits).
  void write_picture(const std::string &path_without_extension, const lab::Picture &picture);

  // PSNR of @p image against @p original, NaN when the original is unknown or the
  // image is missing.
  double psnr_or_nan(const lab::Matrix<double> &original, const lab::Matrix<double> &image);
} // namespace step5
