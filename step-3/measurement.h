#pragma once
// @sect3{The console line of one computation}
//
// Every computation of the sweep, the course's and the vendor's, prints one line under
// its table's heading: name, time, GFLOP/s, percent of up to two yardsticks (the
// vendor's routines of that table), residual and check (result_checks.h: a computation
// that reports a singular matrix where there is none fails).

#include "result_checks.h"

#include <lab/checks.h>
#include <lab/format.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace step3
{
  // What one computation gave: its time, the residual of what it wrote and the info it
  // reported. NaN where it did not run.
  struct Measurement
  {
    std::string name;
    double ms = std::nan("");
    double residual = std::nan("");
    int info = 0;
    // Where every timed run's result was probed (Problem::time_on_fresh_inputs): the
    // worst probe and its tolerance.
    struct Probe
    {
      double worst, tolerance;
    };
    std::optional<Probe> probe = std::nullopt;
  };

  // The times of a table's two yardsticks, which its percent columns divide by (trtri
  // and trsm for the triangular inverse, potrs for the solves, ...); NaN where a table
  // has only one, or a line none (the CPU's): its column shows a dash.
  struct Yardsticks
  {
    double first_ms = std::nan("");
    double second_ms = std::nan("");
  };

  inline double gflops(double flops, double ms) { return flops / (ms * 1e6); }

  // The heading of a table's lines: @p what names the table, @p first and @p second its
  // yardsticks.
  inline void print_heading(const char *what, const char *first, const char *second)
  {
    std::printf("  %-30s %10s %9s %8s %8s %10s   %s\n", what, "time", "GFLOP/s", first, second, "residual",
                "check");
  }

  // Judges @p m (result_checks.h), and its probe where it has one, and prints its
  // line.
  inline void report(lab::Checks &checks, const std::string &context, const Measurement &m, double flops,
                     double tolerance, Yardsticks yardsticks = {})
  {
    bool ok = judge(checks, context + " " + m.name, m.info, m.residual, tolerance);
    if (m.probe && m.info == 0)
      ok = checks.at_most(context + " " + m.name + " every run (probe)", m.probe->worst, m.probe->tolerance) && ok;
    std::printf("  %-30s %10s %9.0f %8s %8s %10.2e   %s\n", m.name.c_str(), lab::format_milliseconds(m.ms).c_str(),
                gflops(flops, m.ms), lab::format_or_dash(100 * yardsticks.first_ms / m.ms, "%.1f%%").c_str(),
                lab::format_or_dash(100 * yardsticks.second_ms / m.ms, "%.1f%%").c_str(), m.residual,
                lab::verdict(ok));
    std::fflush(stdout);
  }
} // namespace step3
