# The plot of a grading (tools/grade): every row of its table, one per student and
# exercise, with the student's time beside the course's solution and the vendor's (log
# scale); a row without a time (FAIL, SKIPPED, or not timed) has no bars but its label
# and a mark, so that no row is dropped.
#
#   gnuplot -e "dat='results/local/grade/latest/grade.dat'; out='results/local/grade/latest/grade'" tools/grade.gp
#
# The student's bar is drawn only for a PASS (the time of a wrong result means
# nothing). Reads dat (columns by position, as tools/grade writes them: 1 student, 2 exercise,
# 3 step, 4 difficulty, 5 status, 6 code, 7 time_ms, 8 solution_ms, 9 vendor_ms) and
# writes out.png and out.svg.
if (!exists("dat")) dat = "results/local/grade/latest/grade.dat"
if (!exists("out")) out = "results/local/grade/latest/grade"

load system("dirname '" . ARG0 . "'") . "/../common/plot/tables.gp"

gpu = gpu_of(dat)
rows = system(sprintf("grep -vc '^#' '%s'", dat)) + 0
timed = words(with_data(dat, 7, 9))
# The bars' floor: a decade below the smallest time, where the marks of the rows
# without one stand.
lowest = timed > 0 ? system(sprintf("awk '!/^#/ { for (c = 7; c <= 9; ++c) if ($c != \"NaN\" && $c > 0 && (m == \"\" || $c < m)) m = $c } END { printf \"%%.12f\\n\", m }' '%s'", dat)) + 0 : 1
bottom = timed > 0 ? 10 ** floor(log10(lowest) - 1) : 0.1
label(x) = stringcolumn(1) . ": " . stringcolumn(2) . " (" . stringcolumn(5) . ")"
bar(c) = (column(c) == column(c) && column(c) > 0) ? column(c) : NaN
# The student's time only where the code passed: a wrong result's time means nothing.
passed_bar(c) = stringcolumn(5) eq "PASS" ? bar(c) : NaN
mark = "FAIL SKIPPED"
unmarked(s) = strstrt(mark, s) > 0 ? bottom * 1.5 : NaN

set style fill solid 0.8 border -1
set boxwidth 0.26
set logscale y 10
set format y "10^{%L}"
set yrange [bottom:*]
set xrange [-0.6:rows - 0.4]
set ylabel "time (ms)"
set grid ytics
set key outside top center horizontal
set xtics rotate by -35 left noenhanced font ",9"
set bmargin 14
set rmargin 12

do for [terminal in "pngcairo svg"] {
  width = rows > 24 ? 40 * rows + 300 : 1300
  if (terminal eq "pngcairo") {
    eval sprintf("set terminal pngcairo size %d,600 enhanced font ',11'", width)
    set output out . ".png"
  } else {
    eval sprintf("set terminal svg size %d,600 enhanced font ',11' dynamic", width)
    set output out . ".svg"
  }
  set title "the grading: each student's time, the course's solution, the vendor (GPU: " . gpu . "); x: FAIL or SKIPPED"
  plot dat using ($0 - 0.27):(passed_bar(7)):xtic(label(0)) with boxes title "student (PASS only)" lc 1, \
       '' using 0:(bar(8)) with boxes title "the course's solution" lc 2, \
       '' using ($0 + 0.27):(bar(9)) with boxes title "the vendor" lc 4, \
       '' using 0:(unmarked(stringcolumn(5))) with points pt 2 ps 2 lc rgb "red" title "FAIL or SKIPPED"
  unset output
}
