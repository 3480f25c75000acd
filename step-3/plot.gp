# step-3: the triangular inverses against cuSOLVER trtri and cuBLAS trsm, the thesis'
# methods against the vendor's, and solving against inverting.
#
#   gnuplot -e "dir='results/local/step-3'" step-3/plot.gp      (make plots does this)
#
# Reads dir/inverse_<precision>.dat, dir/solve_<precision>.dat and
# dir/gauss_jordan_<precision>.dat (whichever exist) and writes into out, each as .png
# and .svg, one panel per precision:
#   step-3_gflops        GFLOP/s (n^3/3 flops) of every triangular variant, trtri,
#                        trsm(L, I), the CPU and LAPACK
#   step-3_thesis_gap    how many times slower than the vendor's routine the thesis'
#                        methods are: GETS against trtri, Gauss-Jordan against
#                        getrf + getrs(I)
#   step-3_solve         A x = b for 1 and 256 right-hand sides: time and backward error
#                        of two substitutions, the explicit inverse, and potrs
# Columns are found by name (common/plot/tables.gp); the variants are the columns
# between trsm_ms and residual_cpu, so variants can be added without touching this.
if (!exists("dir")) dir = "results/local/step-3"
# The plots go into out, by default next to the tables (a test draws them elsewhere).
if (!exists("out")) out = dir
load system("dirname '" . ARG0 . "'") . "/../common/plot/tables.gp"

file_of(name, f) = dir . "/" . name . "_" . precision(f) . ".dat"
tables = has(file_of("inverse", 1)) + has(file_of("inverse", 2))
if (tables == 0) { print "step-3/plot.gp: no tables in " . dir; exit }
gpu = gpu_of(file_of("inverse", has(file_of("inverse", 1)) ? 1 : 2))
skipped = ""
do for [name in "inverse solve gauss_jordan"] {
  do for [f = 1:2] { skipped = left_out(skipped, missing(file_of(name, f))) }
}

set datafile missing "NaN"
set grid
set style data linespoints

# The two terminals every plot is drawn on, one panel per precision.
do_png = "set terminal pngcairo size 650 * panels + 100, 560 enhanced font ',11'"
do_svg = "set terminal svg size 650 * panels + 100, 560 enhanced font ',11' dynamic"

# ---------------------------------------------------------------- 1: GFLOP/s
gflops(c) = column(1)**3 / 3 / (column(c) * 1e6)
panels = tables
do for [terminal in "png svg"] {
  eval (terminal eq "png" ? do_png : do_svg)
  set output out . "/step-3_gflops." . terminal
  set logscale x 2
  set logscale y 10
  set format y "10^{%L}"
  set xlabel "matrix size n"
  set ylabel "GFLOP/s (n^3/3 flops per inverse)"
  set key inside top left noenhanced spacing 1.1
  set autoscale yfix
  set offsets 0, 0, graph 0.35, 0
  set multiplot layout 1,panels title "step-3: triangular inverse X = L^{-1}, GFLOP/s (GPU: " . gpu . ")"
  do for [f = 1:2] {
    file = file_of("inverse", f)
    if (has(file)) {
      set title precision(f)
      cols = cols_of(file)
      cpu = index_of(cols, "cpu_ms"); lapack = index_of(cols, "lapack_ms")
      trtri = index_of(cols, "trtri_ms"); trsm = index_of(cols, "trsm_ms")
      first = trsm + 1; last = index_of(cols, "residual_cpu") - 1
      list = with_data(file, trtri, trsm) . " " . with_data(file, first, last) . " " . with_data(file, cpu, lapack)
      if (terminal eq "png") {
        skipped = left_out(skipped, empty_columns(file, cpu, last))
      }
      name(c) = (c == trtri ? "cuSOLVER trtri" : c == trsm ? "cuBLAS trsm(L, I)" : \
                 c == cpu ? "CPU (all cores)" : c == lapack ? "LAPACK trtri (all cores)" : no_ms(word(cols, c)))
      hue(c) = (c == trtri ? "black" : c == trsm ? "gray30" : c == cpu ? "gray50" : c == lapack ? "gray70" : colour(c - first + 1))
      point(c) = (c == trtri ? 7 : c == trsm ? 5 : c >= first && c <= last ? marker(c - first + 1) : 1)
      width(c) = (c == trtri || c == trsm ? 3 : 2)
      dash(c) = (c == cpu || c == lapack ? 2 : 1)
      plot for [w in list] file using 1:(gflops(w + 0)) title name(w + 0) \
             lw width(w + 0) pt point(w + 0) lc rgb hue(w + 0) dt dash(w + 0)
    }
  }
  unset multiplot
  unset output
}
unset logscale
set format y "% h"
set offsets 0, 0, 0, 0

# ------------------------------------------------------ 2: the thesis' gap
# time of the thesis' method / time of the vendor's routine, in the same run: a panel
# for each precision whose table has both GETS's and trtri's times.
array gap[2]
panels = 0
do for [f = 1:2] {
  file = file_of("inverse", f)
  gap[f] = 0
  if (has(file)) {
    cols = cols_of(file)
    gap[f] = has_data(file, index_of(cols, "trtri_ms")) && has_data(file, index_of(cols, "1_gets_2011_ms"))
  }
  panels = panels + gap[f]
}
if (panels == 0) {
  skipped = left_out(skipped, "the thesis' gap plot (no GPU times)")
} else {
  do for [terminal in "png svg"] {
    eval (terminal eq "png" ? do_png : do_svg)
    set output out . "/step-3_thesis_gap." . terminal
    set logscale x 2
    set logscale y 10
    set xlabel "matrix size n"
    set ylabel "times slower than the vendor's routine"
    set key inside top left noenhanced
    set multiplot layout 1,panels title "step-3: the thesis' methods against the vendor's (GPU: " . gpu . ")"
    do for [f = 1:2] {
      file = file_of("inverse", f)
      if (gap[f]) {
        set title precision(f)
        cols = cols_of(file)
        trtri = index_of(cols, "trtri_ms"); gets = index_of(cols, "1_gets_2011_ms"); best = index_of(cols, "4_recursive_ms")
        gj = file_of("gauss_jordan", f)
        gj_cols = has(gj) ? cols_of(gj) : ""
        getrf = index_of(gj_cols, "getrf_getrs_ms"); thesis_gj = index_of(gj_cols, "1_thesis_swap_on_zero_ms")
        gj_curve = (has(gj) && thesis_gj > 0 && getrf > 0 ? has_data(gj, thesis_gj) && has_data(gj, getrf) : 0)
        plot file using 1:(column(gets) / column(trtri)) title "GETS (variant 1) / trtri" lw 2 pt 4 lc rgb colour(1), \
             for [g = 1:has_data(file, best)] file using 1:(column(best) / column(trtri)) \
               title "variant 4 / trtri" lw 2 pt 10 lc rgb colour(4), \
             for [g = 1:gj_curve] gj using 1:(column(thesis_gj) / column(getrf)) \
               title "Gauss-Jordan (thesis) / getrf+getrs(I)" lw 2 pt 6 lc rgb colour(5), \
             1 with lines dt 2 lw 2 lc rgb "black" title "as fast as the vendor"
      }
    }
    unset multiplot
    unset output
  }
  unset logscale
}

# ------------------------------------------------- 3: solving against inverting
# Two rows of panels: time (top) and backward error (bottom), for 1 and 256
# right-hand sides, float and double side by side; a curve for each column that holds
# numbers.
only(nrhs, c) = (column(2) == nrhs ? column(c) : NaN)
panels = has(file_of("solve", 1)) + has(file_of("solve", 2))
if (panels == 0) {
  skipped = left_out(skipped, "the solve plot")
} else {
  do for [terminal in "png svg"] {
    if (terminal eq "png") { set terminal pngcairo size 650 * panels + 100, 1000 enhanced font ',11' } \
    else { set terminal svg size 650 * panels + 100, 1000 enhanced font ',11' dynamic }
    set output out . "/step-3_solve." . terminal
    set logscale x 2
    set logscale y 10
    set format y "10^{%L}"
    set xlabel "matrix size n"
    set key inside top left noenhanced
    set multiplot layout 2,panels title "step-3: A x = b by two substitutions or by the explicit inverse (GPU: " . gpu . ")"
    do for [row = 1:2] {
      do for [f = 1:2] {
        file = file_of("solve", f)
        if (has(file)) {
          cols = cols_of(file)
          offset = (row == 1 ? 0 : index_of(cols, "residual_blocked_substitution") - index_of(cols, "blocked_substitution_ms"))
          set title precision(f) . (row == 1 ? ": time" : ": backward error ||b - Ax|| / (||A|| ||x||)")
          set ylabel (row == 1 ? "milliseconds" : "backward error")
          if (row == 1) { set key inside top left } else { set key inside bottom left }
          s = index_of(cols, "blocked_substitution_ms") + offset; c = index_of(cols, "chained_substitution_ms") + offset
          i = index_of(cols, "inverse_and_products_ms") + offset
          m = (row == 1 ? index_of(cols, "read_floor_ms") : 0)
          p = index_of(cols, "products_ms") + offset; v = index_of(cols, "potrs_ms") + offset
          if (row == 1 && terminal eq "png") {
            skipped = left_out(skipped, empty_columns(file, s, v))
          }
          plot for [g = 1:has_data(file, s)] for [k in "1 256"] file using 1:(only(k + 0, s)) title "2 blocked substitutions, " . k . " rhs" lw 2 pt (k eq "1" ? 4 : 5) lc rgb colour(3), \
               for [g = 1:has_data(file, c)] file using 1:(only(1, c)) title "2 chained substitutions, 1 rhs" lw 2 pt 12 lc rgb colour(4), \
               for [g = 1:(m > 0 ? has_data(file, m) : 0)] file using 1:(only(1, m)) title "memory floor (reading L twice)" lw 2 dt 3 lc rgb "gray40", \
               for [g = 1:has_data(file, i)] for [k in "1 256"] file using 1:(only(k + 0, i)) title "inverse + 2 products, " . k . " rhs" lw 2 pt (k eq "1" ? 6 : 7) lc rgb colour(1), \
               for [g = 1:has_data(file, p)] for [k in "1 256"] file using 1:(only(k + 0, p)) title "2 products (X given), " . k . " rhs" lw 2 dt 2 pt (k eq "1" ? 8 : 9) lc rgb colour(2), \
               for [g = 1:has_data(file, v)] for [k in "1 256"] file using 1:(only(k + 0, v)) title "cuSOLVER potrs, " . k . " rhs" lw 2 pt (k eq "1" ? 10 : 11) lc rgb "black"
        }
      }
    }
    unset multiplot
    unset output
  }
}
if (skipped ne "") { print "step-3/plot.gp: left out " . skipped }
