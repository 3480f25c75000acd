// The columns of tables.h, and the notes above them.
#include "tables.h"

#include <lab/precision.h>

#include <vector>

namespace step2
{
  namespace
  {
    // Times first (the CPU, the copies, cuSOLVER, the variants, the graph), then the
    // residuals in the same order, the tolerance and the graph's capture time, then
    // each variant's and the graph's percentage of cuSOLVER's speed, from the runs
    // timed alternately with it (gpu_timing.h; not the ratio of two time columns, which
    // need not have seen the same clock), and last cuSOLVER's median in those same
    // pairs, beside the variant's own median in its time column: the percentage is the
    // median of the pairs' ratios, which the two medians need not give. A variant's
    // residual, percentage and paired columns are named by its number.
    template <typename T>
    std::vector<std::string> cholesky_columns()
    {
      std::vector<std::string> c = {"n", "cpu_ms", "lapack_ms", "copies_ms", "cusolver_ms"};
      for (const Variant<T> &v : variants<T>())
        c.push_back(v.name + "_ms");
      c.push_back(variants<T>().back().name + "_graph_ms");
      c.push_back("residual_cusolver");
      for (const Variant<T> &v : variants<T>())
        c.push_back("residual_" + v.name.substr(0, v.name.find('_')));
      c.insert(c.end(), {"residual_graph", "tolerance", "graph_capture_ms"});
      for (const Variant<T> &v : variants<T>())
        c.push_back("percent_" + v.name.substr(0, v.name.find('_')));
      c.push_back("percent_graph");
      for (const Variant<T> &v : variants<T>())
        c.push_back("cusolver_ms_in_pairs_" + v.name.substr(0, v.name.find('_')));
      c.push_back("cusolver_ms_in_pairs_graph");
      return c;
    }
  } // namespace

  template <typename T>
  Tables<T>::Tables()
    : cholesky_(cholesky_columns<T>()),
      breakdown_({"n", "factorize_diagonal_block_ms", "strip_update_ms", "diag_update_ms", "lo_update_ms"}),
      mixed_precision_({"n", "potrf_potrs_ms", "mixed_ms", "tf32_factor_ms", "rounds", "error_potrs", "error_mixed",
                        "residual_tf32_factor", "irs_ms", "irs_iterations", "error_irs", "irs_refinement"})
  {}

  template <typename T>
  void Tables<T>::add(const SizeResult<T> &r)
  {
    std::vector<double> row = {double(r.n), r.cpu.ms, r.lapack.ms, r.copies_ms, r.cusolver.ms};
    for (const Factorisation &v : r.variants)
      row.push_back(v.ms);
    row.push_back(r.graph.ms);
    row.push_back(r.cusolver.residual);
    for (const Factorisation &v : r.variants)
      row.push_back(v.residual);
    // The tolerance bounds the residual columns, which are all the GPU's: without a
    // GPU it is left out with them.
    row.insert(row.end(), {r.graph.residual, r.ran_on_gpu() ? r.tolerance : not_run, r.graph_capture_ms});
    for (const Factorisation &v : r.variants)
      row.push_back(v.percent_of_vendor);
    row.push_back(r.graph.percent_of_vendor);
    for (const Factorisation &v : r.variants)
      row.push_back(v.vendor_ms_in_pairs);
    row.push_back(r.graph.vendor_ms_in_pairs);
    cholesky_.add_row(row);

    if (const auto &k = r.breakdown)
      breakdown_.add_row({double(r.n), k->factorize_diagonal_block_ms, k->strip_update_ms, k->diag_update_ms,
                          k->lo_update_ms});
    if (const auto &m = r.mixed_precision)
      mixed_precision_.add_row({double(r.n), m->potrf_potrs_ms, m->mixed_ms, m->tf32_factor_ms, double(m->rounds),
                                m->error_potrs, m->error_mixed, m->residual_tf32_factor, m->irs_ms,
                                double(m->irs_iterations), m->error_irs, double(m->irs_refinement)});
  }

  template <typename T>
  void Tables<T>::write(const std::string &folder, const lab::DeviceInfo &device, int reps, int panel_width,
                        int float_panel_width) const
  {
    const char *precision = lab::precision_name<T>();
    lab::TableHeader header{"", lab::describe_for_table(device), precision, reps, {}};
    const auto put = [&](const lab::Table &table, const std::string &file, const std::string &program,
                         std::vector<std::string> notes) {
      header.program = program;
      header.notes = std::move(notes);
      lab::write_table(table, folder + "/" + file, header);
    };
    const std::string width = std::to_string(panel_width);
    put(cholesky_, "cholesky_" + std::string(precision) + ".dat", "step-2 (blocked Cholesky against cuSOLVER potrf)",
        {"times in milliseconds (GPU: kernels only; copies_ms = A up and L down, pageable memory); NaN = not run",
         "panel width of variants 4 and 5: " + width + ", of variants 7 to 10: n/16 rounded up to a multiple of 64, from " +
           width + " to " + std::to_string(2 * panel_width),
         variants<T>().back().name + "_graph: the last variant captured in a CUDA graph (capture time in "
         "graph_capture_ms, not in the timing)",
         "residual = ||L L^T - A||_F / ||A||_F in double, every entry (on the GPU by cuBLAS DSYRK above n = 2048); "
         "tolerance = 4 n eps",
         "percent_N = 100 x median over pairs of runs of cuSOLVER time / variant N's time, the two timed "
         "alternately",
         "cusolver_ms_in_pairs_N = the median of cuSOLVER's runs in those pairs (N_..._ms: the variant's median)"});
    if (breakdown_.rows() > 0)
      put(breakdown_, "breakdown_" + std::string(precision) + ".dat",
          "step-2 (variant 1, the 2011 design: time per kernel)",
          {"milliseconds summed over all launches of one factorisation"});
    if (mixed_precision_.rows() > 0)
      put(mixed_precision_, "mixed_precision_" + std::string(precision) + ".dat",
          std::string("step-2 (variant 6: A x = b in ") + precision +
            " from a float factor with TF32 products and iterative refinement in " + precision +
            ", against potrf + potrs with LOWER and cuSOLVER's IRS solver cusolverDnIRSXgesv, TF32 LU, default "
            "tolerance)",
          {"times in milliseconds (median); error = ||b - A x||_2 / (||A||_F ||x||_2) in double; "
           "residual_tf32_factor = ||L L^T - A||_F / ||A||_F",
           "irs_refinement: the fastest of cuSOLVER's four refinement methods in this run (1 classical, 2 classical "
           "+ GMRES, 3 GMRES, 4 GMRES + GMRES); irs_iterations < 0: it fell back to a factorisation in " +
             std::string(precision),
           "panel width (variant 8's, in float): n/16 rounded up to a multiple of 64, from " +
             std::to_string(float_panel_width) + " to " + std::to_string(2 * float_panel_width)});
  }

  template class Tables<float>;
  template class Tables<double>;
} // namespace step2
