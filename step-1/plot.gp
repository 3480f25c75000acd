# step-1: time against matrix size, log-log, for the CPU loop, LAPACK, and one GPU
# thread (kernel only, and with the copies to and from the GPU).
#
#   gnuplot -e "dir='results/local/step-1'" step-1/plot.gp      (make plots does this)
#
# Reads dir/cholesky_float.dat and dir/cholesky_double.dat (whichever exist) and
# writes dir/step-1_cholesky_time.png and .svg, one panel per precision.
if (!exists("dir")) dir = "results/local/step-1"

has(file) = system(sprintf("test -f '%s' && echo 1 || echo 0", file)) + 0
# The GPU's name: the "# gpu:" header line of a table, up to the first comma.
gpu_of(file) = system(sprintf("sed -n 's/^# gpu: *\\([^,]*\\).*/\\1/p' '%s' | head -n 1", file))

float_file = dir . "/cholesky_float.dat"
double_file = dir . "/cholesky_double.dat"
panels = has(float_file) + has(double_file)
if (panels == 0) { print "step-1/plot.gp: no tables in " . dir; exit }
gpu = gpu_of(has(float_file) ? float_file : double_file)
# A run without a GPU wrote "none" and NaN in the GPU columns: plot the CPU only.
with_gpu = strstrt(gpu, "none") != 1

set logscale xy 2
set logscale y 10
set format y "10^{%L}"
set xlabel "matrix size n"
set ylabel "time (ms)"
set grid
set key top left
set style data linespoints
set datafile missing "NaN"

# Columns of the tables: 1 n, 2 cpu_ms, 3 lapack_ms, 4 gpu_kernel_ms, 5 gpu_total_ms.
do for [terminal in "pngcairo svg"] {
  if (terminal eq "pngcairo") {
    set terminal pngcairo size 1200,520 enhanced font ",11"
    set output dir . "/step-1_cholesky_time.png"
  } else {
    set terminal svg size 1200,520 enhanced font ",11" dynamic
    set output dir . "/step-1_cholesky_time.svg"
  }
  set multiplot layout 1,panels title "step-1: Cholesky on one CPU core and on one GPU thread (GPU: " . gpu . ")"
  do for [file in float_file . " " . double_file] {
    if (has(file)) {
      set title (file eq float_file ? "float" : "double")
      if (with_gpu) {
        plot file using 1:5 title "one GPU thread, with copies" lw 2 pt 7 lc 1, \
             ''   using 1:4 title "one GPU thread, kernel only" lw 2 pt 5 lc 2, \
             ''   using 1:2 title "one CPU core (same loop)" lw 2 pt 9 lc 3, \
             ''   using 1:3 title "LAPACK potrf (all cores)" lw 2 pt 11 lc 4 dt 2
      } else {
        plot file using 1:2 title "one CPU core (same loop)" lw 2 pt 9 lc 3, \
             ''   using 1:3 title "LAPACK potrf (all cores)" lw 2 pt 11 lc 4 dt 2
      }
    }
  }
  unset multiplot
  unset output
}
