// The table of a PSF field (see varying_table.h).
#include "report/varying_table.h"

#include "methods/varying_restoration.h"
#include "report/report.h"

#include <limits>

namespace step5
{
  namespace
  {
    std::vector<std::string> varying_columns()
    {
      std::vector<std::string> columns = {"n", "rows", "cols", "image", "lambda", "degraded_psnr"};
      for (const std::string &name : varying_method_names())
        columns.push_back(name + "_psnr");
      for (const std::string &name : varying_method_names())
        columns.push_back(name + "_ms");
      columns.push_back("cg_iterations");
      columns.push_back("cg_mean_psf_iterations");
      return columns;
    }
  } // namespace

  VaryingTable::VaryingTable() : table_(varying_columns()) {}

  void VaryingTable::add(VaryingImage image, double lambda, const lab::Matrix<double> &original,
                         const lab::Matrix<double> &degraded, const std::vector<MethodResult> &results)
  {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto find = [&](const std::string &name) { return find_result(results, name); };
    const int rows = degraded.rows(), cols = degraded.cols();
    std::vector<double> row = {double(rows) * cols, double(rows),  double(cols), double(int(image)),
                               lambda,              psnr_or_nan(original, degraded)};
    for (const std::string &name : varying_method_names())
      {
        const MethodResult *m = find(name);
        row.push_back(m ? psnr_or_nan(original, m->image) : nan);
      }
    for (const std::string &name : varying_method_names())
      {
        const MethodResult *m = find(name);
        row.push_back(m ? m->milliseconds : nan);
      }
    for (const std::string name : {"cg", "cg_mean_psf"})
      {
        const MethodResult *m = find(name);
        row.push_back(m ? double(m->iterations.iterations) : nan);
      }
    table_.add_row(row);
  }

  void VaryingTable::write(const std::string &path, const std::string &precision, const lab::DeviceInfo &device,
                           int reps, const std::vector<std::string> &notes) const
  {
    std::vector<std::string> all_notes = notes;
    all_notes.push_back("image: 0 the phantom, 1 the photograph, 2 an image given by --image or --degraded");
    table_.write(path, {"step-5 a PSF field: PSNR (dB) and time (ms) of each method", lab::describe_for_table(device),
                        precision, reps, all_notes});
  }
} // namespace step5
