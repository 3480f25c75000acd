// The columns of cholesky_table.h, and the notes above them.
#include "cholesky_table.h"

namespace step1
{
  CholeskyTable::CholeskyTable()
    : table_({"n", "cpu_ms", "lapack_ms", "gpu_kernel_ms", "gpu_total_ms", "residual_cpu", "residual_gpu",
              "tolerance"})
  {}

  void CholeskyTable::add(const SizeResult &r)
  {
    table_.add_row({double(r.n), r.cpu_ms, r.lapack_ms, r.gpu_kernel_ms, r.gpu_total_ms, r.residual_cpu,
                    r.residual_gpu, r.tolerance});
  }

  void CholeskyTable::write(const std::string &folder, const lab::DeviceInfo &device, int reps,
                            const std::string &precision) const
  {
    lab::TableHeader header;
    header.program = "step-1 (Cholesky: one CPU core, LAPACK, one GPU thread)";
    header.gpu = lab::describe_for_table(device);
    header.precision = precision;
    header.reps = reps;
    header.notes = {"times in milliseconds; gpu_total_ms includes both copies (pageable host memory); "
                    "lapack_ms is potrf on all cores (NaN without LAPACK)",
                    "residual = ||L L^T - A||_F / ||A||_F in double; tolerance = 4 n eps"};
    lab::write_table(table_, folder + "/cholesky_" + precision + ".dat", header);
  }
} // namespace step1
