// Tests of the program's tables (report/tables.h, report/varying_table.h) that need no
// GPU: the methods' results are made by hand, every time, stage, λ and image different
// from every other, and each column is read back by its name, as step-5/plot.gp finds
// it.
#include "methods/varying_restoration.h"
#include "report/tables.h"
#include "report/varying_table.h"

#include <lab/device.h>
#include <lab/image_quality.h>
#include <lab_catch.h>
#include <temp_dir.h>
#include <written_table.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace
{
  // An image of 101 x 103 pixels, larger than any count the test hands out, so that
  // its size columns (n, rows, cols) hold numbers of their own.
  constexpr int rows = 101, cols = 103;

  lab::Matrix<double> grey(double level)
  {
    lab::Matrix<double> image(rows, cols);
    for (std::size_t p = 0; p < image.size(); ++p)
      image.data()[p] = level;
    return image;
  }

  // The original, and a restoration of it that is @p error off at every pixel: each
  // error gives a PSNR of its own, 20 log10(1 / error) dB.
  const lab::Matrix<double> original = grey(0.5);
  lab::Matrix<double> off_by(double error) { return grey(0.5 + error); }

  // The degraded image, and a result of every method in @p names: its image off by a
  // thousandth of a new value (a PSNR of its own), its time a new value, and where
  // @p with_stages says so every stage of its pipeline a new value. The PSNR and time
  // of each method are expected in @p quality and @p times under "<name>_psnr" and
  // "<name>_ms".
  std::vector<step5::MethodResult> results(const std::vector<std::string> &names, lab_test::DistinctValues &times,
                                           lab_test::DistinctValues &quality)
  {
    std::vector<step5::MethodResult> results;
    for (const std::string &name : names)
      {
        step5::MethodResult m;
        m.name = name;
        m.image = off_by(quality.next() / 1000);
        quality.expect(name + "_psnr", lab::psnr(original, m.image));
        m.milliseconds = times(name + "_ms");
        results.push_back(m);
      }
    return results;
  }

  // The tables of the phantom, the methods of the course's comparison and their
  // pipelines' stages, written as the program writes them.
  struct WrittenTables
  {
    lab_test::TempDir folder;
    lab_test::DistinctValues times;
    lab_test::DistinctValues quality = times.sharing_count(), stages = times.sharing_count();

    WrittenTables()
    {
      for (lab_test::DistinctValues *table : {&times, &quality, &stages})
        {
          table->expect("n", rows * cols);
          table->expect("rows", rows);
          table->expect("cols", cols);
        }
      const double lambda = quality("lambda");
      const lab::Matrix<double> degraded = off_by(quality.next() / 1000);
      quality.expect("degraded_psnr", lab::psnr(original, degraded));
      std::vector<step5::MethodResult> all =
        results({"dense_course_solve", "dense_course_inverse", "dense_cublas_solve", "dense_cublas_inverse",
                 "dense_cusolver", "band_course_solve", "cg", "fft_periodic", "fft_mirrored", "gauss_seidel",
                 "cholmod", "dense_tf32_refined", "dense_cusolver_irs", "dense_ozaki_solve", "dense_ozaki_inverse"},
                times, quality);
      // Each pipeline's stages: the solve route's method holds the stages they share and
      // the solve, the inverse route's method the inverse's own three; a pipeline without
      // an inverse route has NaN there.
      const std::vector<std::pair<std::string, std::pair<std::string, std::string>>> pipelines = {
        {"course", {"dense_course_solve", "dense_course_inverse"}},
        {"cublas", {"dense_cublas_solve", "dense_cublas_inverse"}},
        {"cusolver", {"dense_cusolver", ""}},
        {"band", {"band_course_solve", ""}},
        {"tf32", {"dense_tf32_refined", ""}},
        {"cusolver_irs", {"dense_cusolver_irs", ""}},
        {"ozaki", {"dense_ozaki_solve", "dense_ozaki_inverse"}}};
      for (const auto &[pipeline, routes] : pipelines)
        for (step5::MethodResult &m : all)
          {
            const std::string stage = pipeline + "_";
            if (m.name == routes.first)
              {
                m.stages.build = stages(stage + "build_ms");
                m.stages.normal = stages(stage + "normal_ms");
                m.stages.factor = stages(stage + "factor_ms");
                m.stages.solve = stages(stage + "solve_ms");
              }
            if (m.name == routes.second)
              {
                m.stages.invert = stages(stage + "invert_ms");
                m.stages.inverse = stages(stage + "inverse_ms");
                m.stages.apply = stages(stage + "apply_ms");
              }
            if (m.name == routes.first && routes.second.empty())
              for (const char *absent : {"invert_ms", "inverse_ms", "apply_ms"})
                stages.expect(stage + absent, std::nan(""));
          }
      step5::Tables tables;
      tables.add(lambda, original, degraded, all);
      tables.write((folder.path() / "").string(), "float", lab::DeviceInfo{}, 5, {"a test"});
    }

    std::vector<lab_test::TableWritten> all() const
    {
      return {{folder / "times_float.dat", &times},
              {folder / "quality_float.dat", &quality},
              {folder / "stages_float.dat", &stages}};
    }
  };

  // The table of a PSF field: the photograph, every method of the field's comparison,
  // and the iterations of its two CG runs.
  struct WrittenVaryingTable
  {
    lab_test::TempDir folder;
    lab_test::DistinctValues values;

    WrittenVaryingTable()
    {
      values.expect("n", rows * cols);
      values.expect("rows", rows);
      values.expect("cols", cols);
      values.expect("image", double(step5::VaryingImage::photograph));
      const double lambda = values("lambda");
      const lab::Matrix<double> degraded = off_by(values.next() / 1000);
      values.expect("degraded_psnr", lab::psnr(original, degraded));
      std::vector<step5::MethodResult> all = results(step5::varying_method_names(), values, values);
      for (step5::MethodResult &m : all)
        if (m.name == "cg" || m.name == "cg_mean_psf")
          m.iterations.iterations = values.whole(m.name + "_iterations");
      step5::VaryingTable table;
      table.add(step5::VaryingImage::photograph, lambda, original, degraded, all);
      table.write((folder / "varying_lens_float.dat").string(), "float", lab::DeviceInfo{}, 5, {"a test"});
    }

    std::vector<lab_test::TableWritten> all() const { return {{folder / "varying_lens_float.dat", &values}}; }
  };

  using Mismatches = std::vector<std::string>;
} // namespace

TEST_CASE("tables: every column of the times, quality and stages tables holds the value written under its name",
          "[cpu]")
{
  CHECK(lab_test::column_mismatches(WrittenTables().all()) == Mismatches{});
}

TEST_CASE("tables: every column of a PSF field's table holds the value written under its name", "[cpu]")
{
  CHECK(lab_test::column_mismatches(WrittenVaryingTable().all()) == Mismatches{});
}

TEST_CASE("planted: any two columns of step-5's tables swapped FAIL the test by name", "[cpu]")
{
  CHECK(lab_test::swaps_not_seen(WrittenTables().all()) == Mismatches{});
  CHECK(lab_test::swaps_not_seen(WrittenVaryingTable().all()) == Mismatches{});
}
