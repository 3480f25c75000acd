# step-1: time against matrix size, log-log, for the CPU loop, LAPACK, and one GPU
# thread (kernel only, and with the copies to and from the GPU).
#
#   gnuplot -e "dir='results/local/step-1'" step-1/plot.gp      (make plots does this)
#
# Reads dir/cholesky_float.dat and dir/cholesky_double.dat (whichever exist) and
# writes out/step-1_cholesky_time.png and .svg, one panel per precision.
if (!exists("dir")) dir = "results/local/step-1"
# The plots go into out, by default next to the tables (a test draws them elsewhere).
if (!exists("out")) out = dir

load system("dirname '" . ARG0 . "'") . "/../common/plot/tables.gp"

float_file = dir . "/cholesky_float.dat"
double_file = dir . "/cholesky_double.dat"
panels = has(float_file) + has(double_file)
if (panels == 0) { print "step-1/plot.gp: no tables in " . dir; exit }
gpu = gpu_of(has(float_file) ? float_file : double_file)
skipped = left_out(missing(float_file), missing(double_file))

set logscale xy 2
set logscale y 10
set format y "10^{%L}"
set xlabel "matrix size n"
set ylabel "time (ms)"
set grid
set key top left
set style data linespoints
set datafile missing "NaN"

# Columns of the tables: 1 n, 2 cpu_ms, 3 lapack_ms, 4 gpu_kernel_ms, 5 gpu_total_ms. A
# run without a GPU wrote NaN in the GPU's two, a build without LAPACK in its one:
# each panel draws the columns that hold numbers.
title_of(c) = (c == 2 ? "one CPU core (same loop)" : c == 3 ? "LAPACK potrf (all cores)" : \
               c == 4 ? "one GPU thread, kernel only" : "one GPU thread, with copies")
hue(c) = (c == 2 ? 3 : c == 3 ? 4 : c == 4 ? 2 : 1)
point(c) = (c == 2 ? 9 : c == 3 ? 11 : c == 4 ? 5 : 7)
dash(c) = (c == 3 ? 2 : 1)
do for [file in float_file . " " . double_file] {
  skipped = left_out(skipped, empty_columns(file, 2, 5))
}
do for [terminal in "pngcairo svg"] {
  if (terminal eq "pngcairo") {
    set terminal pngcairo size 1200,520 enhanced font ",11"
    set output out . "/step-1_cholesky_time.png"
  } else {
    set terminal svg size 1200,520 enhanced font ",11" dynamic
    set output out . "/step-1_cholesky_time.svg"
  }
  set multiplot layout 1,panels title "step-1: Cholesky on one CPU core and on one GPU thread (GPU: " . gpu . ")"
  do for [file in float_file . " " . double_file] {
    if (has(file)) {
      set title (file eq float_file ? "float" : "double")
      # The GPU's curves first, as the key lists them.
      list = with_data(file, 5, 5) . " " . with_data(file, 4, 4) . " " . with_data(file, 2, 3)
      plot for [c in list] file using 1:(column(c + 0)) title title_of(c + 0) \
             lw 2 pt point(c + 0) lc hue(c + 0) dt dash(c + 0)
    }
  }
  unset multiplot
  unset output
}
if (skipped ne "") { print "step-1/plot.gp: left out " . skipped }
