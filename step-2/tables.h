#pragma once
// @sect3{The tables of one precision}
//
// Three tables, one row per size: `cholesky_<precision>.dat` (every factorisation's
// time, residual and percentage of cuSOLVER), `breakdown_<precision>.dat` (variant 1 kernel by kernel) and
// `mixed_precision_<precision>.dat` (variant 6's solve against cuSOLVER's). The object owns
// their columns, takes each size's SizeResult and picks the fields by name, so that no
// list of numbers has to follow a list of column names built somewhere else; and it
// writes each table that has rows, with the notes that say what the columns mean.

#include "size_result.h"

#include <lab/device.h>
#include <lab/table.h>

#include <string>

namespace step2
{
  template <typename T>
  class Tables
  {
  public:
    Tables();

    // One row in each table for which @p result holds the numbers.
    void add(const SizeResult<T> &result);

    // Into @p folder (the program's `--out`/step-2): the device the numbers come from,
    // the repetitions behind each median and the panel widths go into the headers:
    // @p panel_width of variants 4, 5 and 7 in T, @p float_panel_width of variant 6,
    // whose factor is float in either precision.
    void write(const std::string &folder, const lab::DeviceInfo &device, int reps, int panel_width,
               int float_panel_width) const;

  private:
    lab::Table cholesky_, breakdown_, mixed_precision_;
  };
} // namespace step2
