# step-4: the SGEMM kernel progression against cuBLAS, plus the TF32, double and
# CPU references.
#
#   gnuplot -e "dir='results/local/step-4'" step-4/plot.gp      (make plots does this)
#
# Reads dir/gflops_float.dat, dir/tf32.dat, dir/double.dat, dir/percent_of_cublas.dat
# and dir/cpu.dat (whichever exist) and writes into out, each as .png and .svg:
#   step-4_gflops               GFLOP/s against n, every float kernel and cuBLAS
#   step-4_percent_of_cublas    one bar per kernel: percent of cuBLAS at n = 4096
#   step-4_tf32_double_cpu      one panel each for TF32, double and the CPU
# Kernel names come from each table's last "# n ..." line, so kernels can be
# added or renamed in step-4 without touching this script. double.dat has the
# columns n, cublas_dgemm, one per double kernel, then error_cublas and one error
# per kernel: its kernels are columns 3 to 2 + (columns - 3) / 2.
if (!exists("dir")) dir = "results/local/step-4"
# The plots go into out, by default next to the tables (a test draws them elsewhere).
if (!exists("out")) out = dir

load system("dirname '" . ARG0 . "'") . "/../common/plot/tables.gp"
# The row compared in the bar chart: n = 4096, or the largest n if there is none.
row_of(file) = system(sprintf("awk '!/^#/ && NF { if ($1 == 4096) r = $0; if ($1 + 0 > m) { m = $1 + 0; l = $0 } } END { print (r != \"\" ? r : l) }' '%s'", file))

float_file = dir . "/gflops_float.dat"
tf32_file = dir . "/tf32.dat"
double_file = dir . "/double.dat"
cpu_file = dir . "/cpu.dat"
has_float = has(float_file); has_tf32 = has(tf32_file)
has_double = has(double_file); has_cpu = has(cpu_file)
if (has_float + has_tf32 + has_double + has_cpu == 0) { print "step-4/plot.gp: no tables in " . dir; exit }
gpu = gpu_of(has_float ? float_file : has_tf32 ? tf32_file : has_double ? double_file : cpu_file)
skipped = ""
do for [file in float_file . " " . tf32_file . " " . double_file . " " . cpu_file] {
  skipped = left_out(skipped, missing(file))
}

set datafile missing "NaN"
set grid
set style data linespoints
gflops(ms) = 2.0 * column(1)**3 / (column(ms) * 1e6)   # cpu.dat has times in ms
# 12 distinct colours (not the variants' of the other steps); kernels past the 12th
# reuse them, dotted.
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #00008b #ff1493"
colour(i) = word(colours, 1 + (i - 1) % 12)
marker(i) = 4 + (i - 1) % 12    # open and filled squares, circles, triangles, ...
dash(i) = (i <= 12 ? 1 : 3)   # a function: "dt (" would be read as a dash pattern

# ---------------------------------------------------------------- 1: GFLOP/s
if (has_float) {
  fcols = cols_of(float_file)          # n cublas kernel...
  nf = words(fcols)
  skipped = left_out(skipped, empty_columns(float_file, 2, nf))
  peak = system(sprintf("sed -n 's/^# peak_fp32_gflops *\\([0-9.eE+]*\\).*/\\1/p' '%s' | head -n 1", float_file))
  do for [terminal in "pngcairo svg"] {
    if (terminal eq "pngcairo") {
      set terminal pngcairo size 1300,650 enhanced font ",11"
      set output out . "/step-4_gflops.png"
    } else {
      set terminal svg size 1300,650 enhanced font ",11" dynamic
      set output out . "/step-4_gflops.svg"
    }
    set title "step-4: SGEMM kernels against cuBLAS (GPU: " . gpu . ")"
    set logscale x 2
    set logscale y 10
    set format y "10^{%L}"
    set xlabel "matrix size n (square, n x n)"
    set ylabel "GFLOP/s"
    # Twelve kernels and cuBLAS: the key would hide curves inside the plot.
    set key outside right top noenhanced
    unset label
    if (peak ne "") {
      set label 1 sprintf("FP32 peak %.0f GFLOP/s", peak + 0) at graph 0.02, first (peak * 1.12) left
    }
    plot float_file using 1:2 title "cuBLAS" lw 4 pt 7 lc rgb "black", \
         for [c in with_data(float_file, 3, nf)] float_file using 1:(column(c + 0)) title word(fcols, c + 0) lw 1.5 \
           pt marker(c - 2) lc rgb colour(c - 2) dt dash(c - 2), \
         (peak ne "" ? peak + 0 : NaN) with lines notitle dt 2 lw 2 lc rgb "gray40"
    unset output
  }
  unset label
  unset logscale
  set format y "% h"
}

# ------------------------------------------------- 2: percent of cuBLAS (bars)
# From percent_of_cublas.dat, where step-4 wrote each kernel's percentage as it
# measured it, timed alternately with its cuBLAS product (not the ratio of two GFLOP/s
# columns, which were not timed side by side). A column's group (1 float, 2 TF32, 3
# double) is the table that has it: only the precisions that ran get bars. Build a
# datablock "name percent group text", then plot it. A NaN percent is written as 0
# with the text "n/a": gnuplot skips NaN rows.
bar(name, p, g) = sprintf("\"%s\" %g %d \"%s\"", name, (p == p ? p : 0), g, (p == p ? sprintf("%.0f", p) : "n/a"))
percent_file = dir . "/percent_of_cublas.dat"
skipped = left_out(skipped, missing(percent_file))
set print $bars
top = 100
n_bars = ""
if (has(percent_file)) {
  float_cols = (has_float ? cols_of(float_file) : "")
  tf32_cols = (has_tf32 ? cols_of(tf32_file) : "")
  double_cols = (has_double ? cols_of(double_file) : "")
  pcols = cols_of(percent_file)
  row = row_of(percent_file)
  n_bars = word(row, 1)
  do for [i = 2:words(pcols)] {
    name = word(pcols, i)
    g = (index_of(float_cols, name) > 0 ? 1 : index_of(tf32_cols, name) > 0 ? 2 : index_of(double_cols, name) > 0 ? 3 : 0)
    p = word(row, i) + 0
    if (g > 0) {
      if (p == p && p > top) { top = p }
      print bar(name . (g == 2 ? " (vs cuBLAS TF32)" : g == 3 ? " (vs DGEMM)" : ""), p, g)
    }
  }
}
unset print

if (|$bars| > 0) {
  do for [terminal in "pngcairo svg"] {
    if (terminal eq "pngcairo") {
      set terminal pngcairo size 1300,650 enhanced font ",11"
      set output out . "/step-4_percent_of_cublas.png"
    } else {
      set terminal svg size 1300,650 enhanced font ",11" dynamic
      set output out . "/step-4_percent_of_cublas.svg"
    }
    set title "step-4: each kernel as percent of cuBLAS at n = " . n_bars . ", timed alternately with it (GPU: " . gpu . ")"
    unset xlabel
    set ylabel "percent of cuBLAS (%)"
    set yrange [0:top * 1.1]          # room for the numbers above the bars
    set xrange [-0.6:|$bars| - 0.4]
    set xtics rotate by 30 right noenhanced nomirror
    set grid noxtics ytics
    set style fill solid 0.8 border -1
    set key inside top left noenhanced
    group_colour(g) = (g == 1 ? 0x1f77b4 : g == 2 ? 0xff7f0e : 0x2ca02c)
    set style textbox opaque noborder   # the numbers stay readable on the 90 % line
    plot $bars using 0:2:(0.7):(group_colour($3)):xtic(1) with boxes lc rgb variable notitle, \
         90 with lines dt 2 lw 2 lc rgb "red" title "course goal: 90 % of cuBLAS", \
         $bars using 0:2:4 with labels boxed offset 0,0.8 noenhanced notitle
    unset output
  }
  unset yrange; unset xrange; unset xtics; set xtics; set grid xtics ytics
} else {
  skipped = left_out(skipped, "the percent-of-cuBLAS plot (no GPU times)")
}

# ------------------------------------------- 3: TF32, double and CPU panels
panels = has_tf32 + has_double + has_cpu
if (panels > 0) {
  do for [terminal in "pngcairo svg"] {
    if (terminal eq "pngcairo") {
      set terminal pngcairo size 500 * panels + 100, 520 enhanced font ",11"
      set output out . "/step-4_tf32_double_cpu.png"
    } else {
      set terminal svg size 500 * panels + 100, 520 enhanced font ",11" dynamic
      set output out . "/step-4_tf32_double_cpu.svg"
    }
    set logscale x 2
    set logscale y 10
    set format y "10^{%L}"
    set xlabel "matrix size n"
    set ylabel "GFLOP/s"
    # The GPU curves rise with n, which leaves the bottom right free for the key.
    set key inside bottom right noenhanced
    set multiplot layout 1,panels title "step-4: TF32, double and CPU references (GPU: " . gpu . ")"
    if (has_tf32) {
      cols = cols_of(tf32_file)
      set title "TF32 (tensor cores)"
      kernels = (words(cols) - 5) / 2
      if (terminal eq "pngcairo") {
        skipped = left_out(skipped, empty_columns(tf32_file, 2, 3 + kernels))
      }
      plot for [c in with_data(tf32_file, 4, 3 + kernels)] tf32_file using 1:(column(c + 0)) title word(cols, c + 0) \
             lw 2 pt (3 + 2 * c) lc rgb colour(c - 2), \
           tf32_file using 1:3 title "cuBLAS TF32" lw 3 pt 5 lc rgb "black", \
           ''        using 1:2 title "cuBLAS FP32" lw 2 pt 9 lc rgb "gray50" dt 2
    }
    if (has_double) {
      cols = cols_of(double_file)
      kernels = (words(cols) - 3) / 2
      set title "double"
      if (terminal eq "pngcairo") {
        skipped = left_out(skipped, empty_columns(double_file, 2, 2 + kernels))
      }
      plot for [c in with_data(double_file, 3, 2 + kernels)] double_file using 1:(column(c + 0)) \
             title word(cols, c + 0) lw 2 pt (5 + 2 * c) lc rgb colour(c + 0), \
           double_file using 1:2 title "cuBLAS DGEMM" lw 3 pt 5 lc rgb "black"
    }
    if (has_cpu) {
      cols = cols_of(cpu_file)   # n naive_ms cache_tiled_ms ...
      set title "CPU"
      # The CPU curves spread over the whole panel: room above them for the key.
      set key inside top left
      set autoscale yfix
      set offsets 0, 0, graph 0.4, graph 0.05
      if (terminal eq "pngcairo") {
        skipped = left_out(skipped, empty_columns(cpu_file, 2, words(cols)))
      }
      plot for [c in with_data(cpu_file, 2, words(cols))] cpu_file using 1:(gflops(c + 0)) \
           title no_ms(word(cols, c + 0)) lw 2 pt (4 + c) lc rgb colour(c - 1)
    }
    unset multiplot
    unset output
    set offsets 0, 0, 0, 0
    set autoscale y            # undo the CPU panel's yfix before the next terminal
  }
}
if (skipped ne "") { print "step-4/plot.gp: left out " . skipped }
