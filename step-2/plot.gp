# step-2: the blocked Cholesky variants against cuSOLVER potrf, the CPU loop and LAPACK,
# and where the 2011 design (variant 1) spends its time.
#
#   gnuplot -e "dir='results/local/step-2'" step-2/plot.gp      (make plots does this)
#
# Reads dir/cholesky_float.dat, dir/cholesky_double.dat, dir/breakdown_float.dat and
# dir/breakdown_double.dat (whichever exist) and writes into out, each as .png and .svg,
# one panel per precision:
#   step-2_gflops                GFLOP/s (n^3/3 flops) against n: every variant,
#                                cuSOLVER, the blocked CPU loop and LAPACK
#   step-2_percent_of_cusolver   each variant as percent of cuSOLVER against n
#   step-2_breakdown             variant 1's time split by kernel, as fractions
#   step-2_mixed_precision       variant 6: time to solution of A x = b and its backward
#                                error, against potrf + potrs and cuSOLVER's IRS solver,
#                                one row per precision (dir/mixed_precision_<precision>.dat)
# Column numbers are looked up by name in each table's last "# n ..." line, and the
# variants are the columns between cusolver_ms and residual_cusolver, so variants can
# be added to step-2 without touching this script. A column that holds only NaN (not
# run: a CPU-only run, --variant, a reference past its size limit) is left out.
if (!exists("dir")) dir = "results/local/step-2"
# The plots go into out, by default next to the tables (a test draws them elsewhere).
if (!exists("out")) out = dir

load system("dirname '" . ARG0 . "'") . "/../common/plot/tables.gp"

float_file = dir . "/cholesky_float.dat"
double_file = dir . "/cholesky_double.dat"
float_breakdown = dir . "/breakdown_float.dat"
double_breakdown = dir . "/breakdown_double.dat"
mixed_float = dir . "/mixed_precision_float.dat"
mixed_double = dir . "/mixed_precision_double.dat"
tables = has(float_file) + has(double_file)
if (tables == 0) { print "step-2/plot.gp: no tables in " . dir; exit }
gpu = gpu_of(has(float_file) ? float_file : double_file)
skipped = ""
do for [file in float_file . " " . double_file . " " . float_breakdown . " " . double_breakdown . " " . mixed_float . " " . mixed_double] {
  skipped = left_out(skipped, missing(file))
}

set datafile missing "NaN"
set grid
set style data linespoints

# The columns of each table (1 float, 2 double), found by name: the CPU loop, LAPACK,
# cuSOLVER, and the variants, c_first[f] to c_last[f].
array c_cpu[2]; array c_lapack[2]; array c_cusolver[2]
array c_first[2]; array c_last[2]; array c_names[2]
do for [f = 1:2] {
  file = (f == 1 ? float_file : double_file)
  if (has(file)) {
    cols = cols_of(file)
    c_names[f] = cols
    c_cpu[f] = index_of(cols, "cpu_ms")
    c_lapack[f] = index_of(cols, "lapack_ms")
    c_cusolver[f] = index_of(cols, "cusolver_ms")
    c_first[f] = c_cusolver[f] + 1
    c_last[f] = index_of(cols, "residual_cusolver") - 1
    skipped = left_out(skipped, empty_columns(file, c_cusolver[f], c_last[f]))
    skipped = left_out(skipped, empty_columns(file, c_cpu[f], c_lapack[f]))
  }
}

# ---------------------------------------------------------------- 1: GFLOP/s
# One plot command per panel over a list of columns; the style of a curve depends on
# what its column is. GFLOP/s = (n^3/3) / time.
gflops(c) = column(1)**3 / 3 / (column(c) * 1e6)
do for [terminal in "pngcairo svg"] {
  if (terminal eq "pngcairo") {
    set terminal pngcairo size 650 * tables + 100, 560 enhanced font ",11"
    set output out . "/step-2_gflops.png"
  } else {
    set terminal svg size 650 * tables + 100, 560 enhanced font ",11" dynamic
    set output out . "/step-2_gflops.svg"
  }
  set logscale x 2
  set logscale y 10
  set format y "10^{%L}"
  set xlabel "matrix size n"
  set ylabel "GFLOP/s (n^3/3 flops per factorisation)"
  # The GPU curves rise to the right: the top left is free for the key.
  set key inside top left noenhanced spacing 1.1
  set autoscale yfix
  set offsets 0, 0, graph 0.3, 0
  set multiplot layout 1,tables title "step-2: blocked Cholesky factorisation, GFLOP/s (GPU: " . gpu . ")"
  do for [f = 1:2] {
    file = (f == 1 ? float_file : double_file)
    if (has(file)) {
      set title precision(f)
      cu = c_cusolver[f]; fv = c_first[f]; cols = c_names[f]
      # cuSOLVER first, then the variants, then the CPU.
      list = with_data(file, cu, cu) . " " . with_data(file, fv, c_last[f]) . " " . \
             with_data(file, c_cpu[f], c_cpu[f]) . " " . with_data(file, c_lapack[f], c_lapack[f])
      if (words(list) == 0) {
        skipped = left_out(skipped, "the " . precision(f) . " GFLOP/s panel (no times)")
      } else {
        is_variant(c) = (c >= fv && c <= c_last[f])
        name(c) = (c == cu ? "cuSOLVER potrf" : c == c_cpu[f] ? "CPU blocked loop (all cores)" : \
                   c == c_lapack[f] ? "LAPACK potrf (all cores)" : no_ms(word(cols, c)))
        hue(c) = (c == cu ? "black" : c == c_cpu[f] ? "gray40" : c == c_lapack[f] ? "gray60" : colour(c - fv + 1))
        width(c) = (c == cu ? 3.5 : 2)
        dash(c) = (is_variant(c) || c == cu ? 1 : 2)
        point(c) = (c == cu ? 7 : is_variant(c) ? marker(c - fv + 1) : c == c_cpu[f] ? 1 : 2)
        plot for [w in list] file using 1:(gflops(w + 0)) title name(w + 0) \
               lw width(w + 0) pt point(w + 0) lc rgb hue(w + 0) dt dash(w + 0)
      }
    }
  }
  unset multiplot
  unset output
}
unset logscale
set format y "% h"
set autoscale y
set offsets 0, 0, 0, 0

# ------------------------------------------------- 2: percent of cuSOLVER
# The percent_N columns near the end of each table (before cuSOLVER's times in the same
# pairs): 100 * cuSOLVER's time / the variant's,
# the median over pairs of runs timed alternately (not the ratio of two time columns,
# which need not have seen the same clock). They follow the variants' order, so the
# k-th of them belongs to the k-th variant column. Only tables that have them, with at
# least one number, get a panel.
array p_list[2]; array p_first[2]
panels = 0
do for [f = 1:2] {
  file = (f == 1 ? float_file : double_file)
  p_list[f] = ""
  if (has(file)) {
    p_first[f] = index_of(c_names[f], "percent_graph") - (c_last[f] - c_first[f])
    if (index_of(c_names[f], "percent_graph") > 0) {
      p_list[f] = with_data(file, p_first[f], index_of(c_names[f], "percent_graph"))
    } else {
      skipped = left_out(skipped, system(sprintf("basename '%s'", file)) . ": no percent columns (timed before the alternate timing)")
    }
  }
  panels = panels + (words(p_list[f]) > 0)
}
if (panels == 0) {
  skipped = left_out(skipped, "the percent-of-cuSOLVER plot (no GPU times)")
} else {
  do for [terminal in "pngcairo svg"] {
    if (terminal eq "pngcairo") {
      set terminal pngcairo size 650 * panels + 100, 560 enhanced font ",11"
      set output out . "/step-2_percent_of_cusolver.png"
    } else {
      set terminal svg size 650 * panels + 100, 560 enhanced font ",11" dynamic
      set output out . "/step-2_percent_of_cusolver.svg"
    }
    set logscale x 2
    set xlabel "matrix size n"
    set ylabel "percent of cuSOLVER potrf (%)"
    # Headroom above the curves (and the 100 % line) for the key.
    set yrange [0:*]
    set offsets 0, 0, graph 0.45, 0
    set key inside top left noenhanced
    set multiplot layout 1,panels title "step-2: each variant as percent of cuSOLVER potrf, timed alternately with it (GPU: " . gpu . ")"
    do for [f = 1:2] {
      file = (f == 1 ? float_file : double_file)
      if (words(p_list[f]) > 0) {
        set title precision(f)
        pf = p_first[f]; fv = c_first[f]; cols = c_names[f]
        plot for [w in p_list[f]] file using 1:(column(w + 0)) title no_ms(word(cols, w + 0 - pf + fv)) \
               lw 2 pt marker(w + 0 - pf + 1) lc rgb colour(w + 0 - pf + 1), \
             100 with lines dt 2 lw 2 lc rgb "black" title "cuSOLVER = 100 %"
      }
    }
    unset multiplot
    unset output
  }
  unset logscale
  set yrange [*:*]
  set offsets 0, 0, 0, 0
}

# ------------------------------------------- 3: variant 1 by kernel (stacked)
# One bar per size, split into the four kernels' shares of their summed time; the sum
# in milliseconds stands under each size.
panels = has(float_breakdown) + has(double_breakdown)
if (panels == 0) {
  skipped = left_out(skipped, "the breakdown plot")
} else {
  do for [terminal in "pngcairo svg"] {
    if (terminal eq "pngcairo") {
      set terminal pngcairo size 650 * panels + 100, 560 enhanced font ",11"
      set output out . "/step-2_breakdown.png"
    } else {
      set terminal svg size 650 * panels + 100, 560 enhanced font ",11" dynamic
      set output out . "/step-2_breakdown.svg"
    }
    set style data histograms
    set style histogram rowstacked
    set style fill solid 0.85 border -1
    set boxwidth 0.7
    set xlabel "matrix size n, and variant 1's summed kernel time" offset 0,-0.5
    set ylabel "share of variant 1's time (%)"
    set yrange [0:125]          # room for the key above the bars
    set ytics 0, 20, 100
    set grid noxtics ytics
    set key inside top center horizontal maxrows 2 noenhanced
    set multiplot layout 1,panels title "step-2: variant 1 (the 2011 design), time by kernel (GPU: " . gpu . ")"
    do for [f = 1:2] {
      file = (f == 1 ? float_breakdown : double_breakdown)
      if (has(file)) {
        set title precision(f)
        cols = cols_of(file)
        nk = words(cols)
        kernel_sum(dummy) = sum [i = 2:nk] column(i)
        total_text(ms) = (ms < 1000 ? sprintf("%.3g ms", ms) : sprintf("%.3g s", ms / 1000))
        # Kernel colours: the diagonal tile, the strip, then the two updates.
        shade(i) = word("#9ecae1 #6baed6 #fdae6b #d62728", 1 + (i - 2) % 4)
        plot for [i = 2:nk] file using (100.0 * column(i) / kernel_sum(0)) \
               :xtic(sprintf("%d\n%s", column(1), total_text(kernel_sum(0)))) \
               title no_ms(word(cols, i)) lc rgb shade(i)
      }
    }
    unset multiplot
    unset output
  }
}

# ---------------------------------- 4: variant 6, the mixed-precision solve
# One row per precision whose table exists. Left: time to solution (potrf + potrs;
# cuSOLVER's IRS solver; variant 6 with its rounds; its TF32 factorisation alone).
# Right: the backward errors of the solutions.
mixed_rows = has(mixed_float) + has(mixed_double)
if (mixed_rows == 0) {
  skipped = left_out(skipped, "the mixed-precision plot")
} else {
  # Undo the settings of the bar chart above.
  set yrange [*:*]; set ytics autofreq; set xtics autofreq; set grid xtics ytics
  set style fill empty; set xlabel offset 0,0; set offsets 0, 0, 0, 0
  do for [terminal in "pngcairo svg"] {
    if (terminal eq "pngcairo") {
      set terminal pngcairo size 1400, 520 * mixed_rows enhanced font ",11"
      set output out . "/step-2_mixed_precision.png"
    } else {
      set terminal svg size 1400, 520 * mixed_rows enhanced font ",11" dynamic
      set output out . "/step-2_mixed_precision.svg"
    }
    set style data linespoints
    set logscale x 2
    set logscale y 10
    set format y "10^{%L}"
    set xlabel "matrix size n"
    set multiplot layout mixed_rows,2 title "step-2: A x = b, variant 6 (float factor with TF32 products, refined in the working precision) against potrf + potrs and cuSOLVER IRS (GPU: " . gpu_of(has(mixed_float) ? mixed_float : mixed_double) . ")"
    do for [f = 1:2] {
      mixed_file = (f == 1 ? mixed_float : mixed_double)
      if (has(mixed_file)) {
        p = (f == 1 ? "s" : "d")
        precision = (f == 1 ? "float" : "double")
        cols = cols_of(mixed_file)
        c_vendor = index_of(cols, "potrf_potrs_ms"); c_mixed = index_of(cols, "mixed_ms")
        c_factor = index_of(cols, "tf32_factor_ms"); c_rounds = index_of(cols, "rounds")
        c_error_vendor = index_of(cols, "error_potrs"); c_error_mixed = index_of(cols, "error_mixed")
        c_irs = index_of(cols, "irs_ms"); c_error_irs = index_of(cols, "error_irs")
        vendor_title = "cuSOLVER " . p . "potrf + " . p . "potrs"
        set key inside top left noenhanced
        set title precision . ": time to solution (label: refinement rounds)"
        set ylabel "milliseconds"
        plot mixed_file using 1:c_vendor title vendor_title lw 3.5 pt 7 lc rgb "black", \
             mixed_file using 1:c_mixed title "variant 6: A to float, TF32 factor, rounds" lw 2 pt 4 lc rgb colour(6), \
             mixed_file using 1:c_mixed:(sprintf("%d", column(c_rounds))) with labels offset 0,-1 notitle, \
             mixed_file using 1:c_factor title "variant 6: the TF32 factorisation alone" lw 2 dt 2 pt 6 lc rgb colour(6), \
             mixed_file using 1:c_irs title "cuSOLVER IRS (TF32 LU, refined; its fastest method)" lw 2.5 dt 3 pt 5 lc rgb "gray40"
        set title precision . ": backward error ||b - A x|| / (||A||_F ||x||)"
        set ylabel "backward error"
        set key inside bottom left
        plot mixed_file using 1:c_error_vendor title vendor_title lw 3.5 pt 7 lc rgb "black", \
             mixed_file using 1:c_error_mixed title "variant 6, refined" lw 2 pt 4 lc rgb colour(6), \
             mixed_file using 1:c_error_irs title "cuSOLVER IRS" lw 2.5 dt 3 pt 5 lc rgb "gray40"
      }
    }
    unset multiplot
    unset output
  }
}
if (skipped ne "") { print "step-2/plot.gp: left out " . skipped }
