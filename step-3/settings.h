#pragma once
// @sect3{What the program was asked to do}
//
// The command line (lab/cli.h's options and step-3's own), and the device the program
// found. Every stage of the sweep reads it.

#include "triangular/triangular_inverse.h"

#include <lab/cli.h>
#include <lab/device.h>

#include <string>

namespace step3
{
  struct Settings
  {
    lab::CommonOptions options;
    std::string variant;     // --variant: one triangular variant, or all when empty
    std::string table;       // --table: one table, or all when empty
    std::string matrix_file; // --matrix
    bool general = false;    // --general: the file is a general matrix (Gauss–Jordan)
    lab::DeviceInfo device;
    bool use_gpu = false;

    // Whether the sweep fills the table named @p name (inverse, solve, spd-inverse,
    // gauss-jordan).
    bool runs_table(const std::string &name) const { return table.empty() || table == name; }

    // Whether the triangular variant @p v runs at size @p n: the one --variant names,
    // else every variant up to its largest size.
    template <typename T>
    bool runs(const InverseVariant<T> &v, int n) const
    {
      if (!variant.empty())
        return find_inverse_variant<T>(variant) == &v;
      return n <= v.largest_n;
    }
  };
} // namespace step3
