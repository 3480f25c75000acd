# The plot of a grading (tools/grade): per exercise, the student's time beside the
# course's solution and the vendor's, log scale; each label says PASS, FAIL or SKIPPED.
#
#   gnuplot -e "dat='results/local/grade/grade.dat'; out='results/local/grade/grade'" tools/grade.gp
#
# Reads dat (columns by position, as tools/grade writes them: 1 exercise, 2 step,
# 3 difficulty, 4 status, 5 time_ms, 6 solution_ms, 7 vendor_ms) and writes out.png
# and out.svg. An exercise that was not timed (NaN: it failed to build, or the machine
# has no GPU) has no bars, only its label.
if (!exists("dat")) dat = "results/local/grade/grade.dat"
if (!exists("out")) out = "results/local/grade/grade"

load system("dirname '" . ARG0 . "'") . "/../common/plot/tables.gp"

gpu = gpu_of(dat)
timed = words(with_data(dat, 5, 7))
set datafile missing "NaN"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y 10
set format y "10^{%L}"
set ylabel "time (ms)"
set grid ytics
set key top left
set xtics rotate by -40 left noenhanced
set bmargin 9
label(status) = stringcolumn(1) . " (" . stringcolumn(4) . ")"

do for [terminal in "pngcairo svg"] {
  if (terminal eq "pngcairo") {
    set terminal pngcairo size 1300,560 enhanced font ",11"
    set output out . ".png"
  } else {
    set terminal svg size 1300,560 enhanced font ",11" dynamic
    set output out . ".svg"
  }
  set title "the exercises: the student's time, the course's solution, the vendor (GPU: " . gpu . ")"
  if (timed > 0) {
    plot dat using 5:xtic(label(0)) title "student" lc 1, \
         '' using 6 title "the course's solution" lc 2, \
         '' using 7 title "the vendor" lc 4
  } else {
    # Nothing was timed (no GPU, or nothing built): the labels alone, with the statuses.
    unset logscale y
    set yrange [0:1]
    plot dat using (0):xtic(label(0)) notitle with points pt -1
  }
  unset output
}
if (timed == 0) { print "tools/grade.gp: left out every bar (no time in " . dat . ")" }
