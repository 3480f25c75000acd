// The thesis' test set (see thesis_test_set.h).
#include "thesis_test_set.h"

#include "methods/restoration.h"
#include "model/lambda_option.h"
#include "model/noise.h"
#include "report/checks.h"

#include <lab/format.h>
#include <lab/image_quality.h>
#include <lab/table.h>
#include <lab/test_images.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace step5
{
  namespace
  {
    const std::string thesis_lambda = "0.001";

    // The λ rule of every case: the thesis' own by default, GCV for a rule.
    std::string test_set_lambda(const std::string &lambda)
    {
      if (lambda == "auto")
        return thesis_lambda;
      return is_lambda_rule(lambda) ? "gcv" : lambda;
    }

    // One case: the phantom @p original degraded by @p psf and @p noise_text, restored,
    // checked, printed and added to @p table as case @p case_number.
    void run_test_case(const Settings &settings, const Psf &psf, const std::string &noise_text,
                       const std::string &per_case, const lab::Matrix<double> &original, int case_number,
                       lab::Table &table, lab::Checks &checks, lab::Cublas *cublas)
    {
      const int side = original.rows();
      const lab::Matrix<double> degraded = degrade(original, psf, parse_noise(noise_text), settings.seed);
      const double lambda = choose_lambda<float>(per_case, psf, degraded, noise_level(psf, original, degraded)).lambda;
      RestoreOptions options;
      options.lambda = lambda;
      options.use_gpu = settings.use_gpu;
      options.dense = dense_fits<float>(settings, side, side);
      options.band = false; // the table compares the dense solution with the thesis' formula
      options.thesis_formula = true;
      options.cg = options.fft = false;         // not in the table
      options.gauss_seidel = !settings.use_gpu; // without a GPU, the CPU's method
      const std::vector<MethodResult> results = restore_with_every_method<float>(psf, degraded, options, cublas);
      const auto psnr_of = [&](const std::string &name) {
        const MethodResult *m = find_result(results, name);
        return m != nullptr ? lab::psnr(original, m->image) : std::numeric_limits<double>::quiet_NaN();
      };
      const std::string restored_by = settings.use_gpu ? "dense_course_solve" : "gauss_seidel";
      const double restored_psnr = psnr_of(restored_by);
      const double restored_mse = std::pow(10.0, -restored_psnr / 10); // PSNR = 10 log10(1 / MSE)
      const double degraded_mse = lab::mean_squared_error(original, degraded);
      std::printf("    %-28s %-22s %9.2e %10.2e / %6.2f %10.2e / %6.2f %13s dB\n", psf.name.c_str(), noise_text.c_str(),
                  lambda, degraded_mse, lab::psnr(original, degraded), restored_mse, restored_psnr,
                  lab::format_or_dash(psnr_of("thesis_formula"), "%.2f").c_str());
      const double u = std::numeric_limits<float>::epsilon() / 2;
      const Tolerances allowed = tolerances(side * side, u, psf, lambda);
      const std::string label = "test set " + psf.name + " " + noise_text;
      for (const MethodResult &m : results)
        check_method(m, allowed, label, checks);
      if (!std::isfinite(restored_psnr))
        checks.fail(label, restored_by + " gave no image");
      table.add_row({double(case_number), lambda, degraded_mse, lab::psnr(original, degraded), restored_mse,
                     restored_psnr, psnr_of("thesis_formula")});
    }
  } // namespace

  void run_test_set(const Settings &settings, const Psf &blur_psf, int side, lab::Checks &checks,
                    lab::Cublas *cublas)
  {
    const std::string per_case = test_set_lambda(settings.lambda);
    std::printf("\nthe thesis' test set: %d x %d phantom, float, lambda: %s\n", side, side, per_case.c_str());
    std::printf("    %-28s %-22s %9s %21s %21s %16s\n", "psf", "noise", "lambda", "degraded MSE / PSNR",
                "restored MSE / PSNR", "thesis' formula");
    lab::Table table(
      {"case", "lambda", "degraded_mse", "degraded_psnr", "restored_mse", "restored_psnr", "thesis_psnr"});
    const lab::Matrix<double> original = lab::shepp_logan(side);
    // The thesis' two PSFs, and a trail, which it did not try: the PSF for which its
    // formula is wrong (the last column).
    const std::vector<Psf> psfs = {blur_psf, sharpen_psf(), trail_psf(9, 30)};
    const std::vector<std::string> noises = {"none", "salt-and-pepper:0.05", "gaussian:0.01"};
    int case_number = 0;
    for (const Psf &psf : psfs)
      for (const std::string &noise_text : noises)
        run_test_case(settings, psf, noise_text, per_case, original, ++case_number, table, checks, cublas);
    table.write(settings.options.out + "/step-5/test_set.dat",
                {"step-5 the thesis' test set: cases 1-3 blur, 4-6 sharpen, 7-9 trail; none, salt-and-pepper 0.05, "
                 "gaussian 0.01",
                 lab::describe_for_table(settings.device), "float", 1, {"blur psf: " + blur_psf.name}});
  }
} // namespace step5
