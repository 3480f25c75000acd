// What the program prints and writes (see report.h).
#include "report/report.h"

#include <lab/format.h>
#include <lab/image_quality.h>
#include <lab/pgm.h>
#include <lab/picture.h>
#include <lab/png.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace step5
{
  double psnr_or_nan(const lab::Matrix<double> &original, const lab::Matrix<double> &image)
  {
    if (original.size() == 0 || image.size() == 0)
      return std::numeric_limits<double>::quiet_NaN();
    return lab::psnr(original, image);
  }

  // The stages of a dense or band pipeline, on a second line under its method (the
  // band pipeline has no H to build: it assembles A from the PSF).
  void print_stages(const MethodResult &m)
  {
    const StageTimes &s = m.stages;
    std::printf("      stages: ");
    if (s.build > 0)
      std::printf("build H %s, ", lab::format_milliseconds(s.build).c_str());
    std::printf("A = HtH + lambda I %s, factor %s", lab::format_milliseconds(s.normal).c_str(),
                lab::format_milliseconds(s.factor).c_str());
    if (s.invert > 0)
      std::printf(", invert L %s, XtX %s, apply %s", lab::format_milliseconds(s.invert).c_str(),
                  lab::format_milliseconds(s.inverse).c_str(), lab::format_milliseconds(s.apply).c_str());
    if (s.solve > 0)
      std::printf(", solves %s", lab::format_milliseconds(s.solve).c_str());
    std::printf("\n");
  }

  // The sparse Cholesky's stages, on a second line too, with what it found: the
  // nonzeros of L against those of A's lower triangle (the fill), the factorisation's
  // flops, the ordering CHOLMOD chose, and whether it went by supernodes. Converting
  // A to CHOLMOD's format is printed but not in the method's time.
  void print_sparse_stages(const MethodResult &m)
  {
    const SparseCholeskyReport &s = m.sparse;
    std::printf("      stages: analyse %s, factor %s, solve %s (A to CSC %s, not counted)\n",
                lab::format_milliseconds(s.analyse).c_str(), lab::format_milliseconds(s.factor).c_str(),
                lab::format_milliseconds(s.solve).c_str(), lab::format_milliseconds(s.assemble).c_str());
    std::printf("      L: %.3g nonzeros (A's lower triangle %.3g), %.3g flops, ordering %s, %s\n",
                s.factor_nonzeros, s.matrix_nonzeros, s.flops, s.ordering.c_str(),
                s.supernodal ? "supernodal" : "simplicial");
  }

  void report_methods(const std::vector<MethodResult> &results, const lab::Matrix<double> &original,
                      const lab::Matrix<double> &degraded, const Tolerances &tolerances, const std::string &label,
                      lab::Checks &checks)
  {
    std::printf("    %-46s %11s %9s  %s\n", "method", "time", "PSNR dB", "check");
    std::printf("    %-46s %11s %9s\n", "degraded (the input)", "-",
                lab::format_or_dash(psnr_or_nan(original, degraded), "%.2f").c_str());
    for (const MethodResult &m : results)
      {
        const std::string check = check_method(m, tolerances, label, checks);
        std::printf("    %-46s %11s %9s  %s\n", m.description.c_str(),
                    m.failure.empty() ? lab::format_milliseconds(m.milliseconds).c_str() : "-",
                    lab::format_or_dash(psnr_or_nan(original, m.image), "%.2f").c_str(), check.c_str());
        if (m.kind == MethodKind::pipeline && m.failure.empty())
          print_stages(m);
        if (m.kind == MethodKind::sparse_cholesky && m.failure.empty())
          print_sparse_stages(m);
      }
  }

  void report_gain(const std::vector<MethodResult> &results, const lab::Matrix<double> &original,
                   const lab::Matrix<double> &degraded, double lambda, const std::string &rule,
                   const std::string &label, lab::Checks &checks)
  {
    std::printf("    lambda %g %s", lambda, rule.c_str());
    const MethodResult *exact = nullptr;
    for (const MethodResult &m : results)
      if (!exact && m.failure.empty() && m.equations == Equations::normal)
        exact = &m;
    if (original.size() == 0)
      std::printf(": no original, no PSNR\n");
    else if (!exact)
      std::printf(": no method of the exact model ran\n");
    else
      {
        const double restored = lab::psnr(original, exact->image), before = lab::psnr(original, degraded);
        const bool above = checks.at_least(label + " restored above the degraded image (gain, dB)", restored - before, 0);
        std::printf(": restored %.2f dB (%s), degraded %.2f dB, gain %+.2f dB%s\n", restored,
                    exact->description.c_str(), before, restored - before,
                    above ? "" : "  FAIL: worse than the image it was given");
      }
  }

  void write_image(const std::string &path_without_extension, const lab::Matrix<double> &image)
  {
    lab::write_pgm(path_without_extension + ".pgm", image);
    if (lab::have_png())
      lab::write_png(path_without_extension + ".png", image);
  }

  void write_picture(const std::string &path_without_extension, const lab::Picture &picture)
  {
    lab::write_netpbm(path_without_extension + (picture.is_colour() ? ".ppm" : ".pgm"), picture);
    if (lab::have_png())
      lab::write_png(path_without_extension + ".png", picture);
  }

  namespace
  {
    // The PSNR of a colour picture: 10 log10(1 / MSE) with the MSE of all three
    // channels together, the mean of theirs.
    double colour_psnr(const lab::Picture &original, const lab::Picture &image)
    {
      double sum = 0;
      for (std::size_t c = 0; c < image.channels.size(); ++c)
        sum += lab::mean_squared_error(original.channels[c], image.channels[c]);
      return 10 * std::log10(1 / (sum / image.channels.size()));
    }
  } // namespace

  void report_colour(const std::string &folder, const std::string &prefix, const lab::Picture &original,
                     const lab::Picture &degraded, const std::vector<std::vector<MethodResult>> &channels,
                     const std::string &label, lab::Checks &checks)
  {
    const std::string start = folder + "/" + prefix + "_";
    const bool known = !original.channels.empty();
    // A precision in which no method ran (the CPU's methods run in the first one only,
    // and without a GPU nothing else runs) has no table: one line says so.
    if (channels.empty() || channels.front().empty())
      {
        std::printf("    colour (%s): no method ran in this precision\n", label.c_str());
        return;
      }
    if (known)
      write_picture(start + "original", original);
    write_picture(start + "degraded", degraded);
    std::printf("    colour (%s), the three channels together:\n", label.c_str());
    std::printf("    %-46s %12s %9s\n", "method", "ms (picture)", "PSNR dB");
    const double before = known ? colour_psnr(original, degraded) : std::nan("");
    std::printf("    %-46s %12s %9s\n", "degraded (the input)", "", lab::format_or_dash(before, "%.2f").c_str());
    const MethodResult *exact = nullptr;
    double exact_psnr = 0;
    for (std::size_t m = 0; m < channels.front().size(); ++m)
      {
        // A method that failed or wrote no image in any channel has no colour picture.
        lab::Picture restored;
        for (const std::vector<MethodResult> &channel : channels)
          if (m < channel.size() && channel[m].failure.empty() && channel[m].image.size() > 0)
            restored.channels.push_back(channel[m].image);
        if (restored.channels.size() != channels.size())
          continue;
        const MethodResult &method = channels.front()[m];
        write_picture(start + method.name, restored);
        const double psnr = known ? colour_psnr(original, restored) : std::nan("");
        // The picture's time: the channels' one after another, or once for a run that
        // restored them together.
        double milliseconds = 0;
        for (const std::vector<MethodResult> &channel : channels)
          milliseconds += channel[m].milliseconds;
        if (method.channels_together > 1)
          milliseconds = method.milliseconds;
        std::printf("    %-46s %12.2f %9s\n", method.description.c_str(), milliseconds,
                    lab::format_or_dash(psnr, "%.2f").c_str());
        if (!exact && method.equations == Equations::normal)
          {
            exact = &method;
            exact_psnr = psnr;
          }
      }
    if (!known || !exact)
      return;
    const bool above =
      checks.at_least(label + " colour restored above the degraded picture (gain, dB)", exact_psnr - before, 0);
    std::printf("    colour: restored %.2f dB (%s), degraded %.2f dB, gain %+.2f dB%s\n", exact_psnr,
                exact->description.c_str(), before, exact_psnr - before,
                above ? "" : "  FAIL: worse than the picture it was given");
  }

  void write_images(const std::string &folder, const std::string &prefix, const lab::Matrix<double> &original,
                    const lab::Matrix<double> &degraded, const std::vector<MethodResult> &results)
  {
    const std::string start = folder + "/" + prefix + "_";
    if (original.size() > 0)
      write_image(start + "original", original);
    write_image(start + "degraded", degraded);
    for (const MethodResult &m : results)
      if (m.image.size() > 0)
        write_image(start + m.name, m.image);
  }
} // namespace step5
