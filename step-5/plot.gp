# step-5: deblurring, the dense pipelines against cuSOLVER, the band, CG, the FFT filters
# and the CPU's methods (Gauss-Seidel, CHOLMOD's sparse Cholesky).
#
#   gnuplot -e "dir='results/local/step-5'" step-5/plot.gp      (make plots does this)
#
# Reads dir/times_<precision>.dat, dir/stages_<precision>.dat, dir/quality_<precision>.dat
# and the images under dir/images (whichever exist), and writes into out, each as .png
# and .svg (the image figures as .png only):
#   step-5_times       time of every method against the number of unknowns n = s²,
#                      one panel per precision (log-log)
#   step-5_stages      where the dense pipelines spend their time at the largest size
#                      that ran them: one stacked bar per pipeline (the TF32 one's
#                      "Cholesky" holds its refinement too), one panel per precision
#   step-5_phantom     the phantom at side 128 (or the largest side there is) in
#                      float: original, degraded and each method, PSNR in the titles
#   step-5_image       the same for an image of your own (step-5 --image), if present
#   step-5_varying_KIND  with a PSF field's table (step-5 --psf lens:... or
#                      rotation:...): PSNR on the phantom and the photograph and
#                      time, every method, against n
#   step-5_varying_KIND_images  that field's photograph (or phantom), float: original,
#                      degraded and the methods' images side by side (.png only)
# Columns are found by name (common/plot/tables.gp), so methods can be added in
# step-5.cu without touching this script.
if (!exists("dir")) dir = "results/local/step-5"
# The plots go into out, by default next to the tables (a test draws them elsewhere).
if (!exists("out")) out = dir
load system("dirname '" . ARG0 . "'") . "/../common/plot/tables.gp"

file_of(name, f) = dir . "/" . name . "_" . precision(f) . ".dat"

do_png = "set terminal pngcairo size 650 * panels + 100, 560 enhanced font ',11'"
do_svg = "set terminal svg size 650 * panels + 100, 560 enhanced font ',11' dynamic"

# The methods' names as the console prints them, from their column names.
label(c) = (c eq "dense_course_solve" ? "dense, step-4's kernels, two solves" : \
            c eq "dense_course_inverse" ? "dense, step-4's kernels, inverse (thesis)" : \
            c eq "dense_cublas_solve" ? "dense, cuBLAS, two solves" : \
            c eq "dense_cublas_inverse" ? "dense, cuBLAS, inverse (thesis)" : \
            c eq "dense_cusolver" ? "dense, cuBLAS SYRK + cuSOLVER potrf/potrs" : \
            c eq "band_course_solve" ? "band, step-4's kernels, two solves" : \
            c eq "cg" ? "conjugate gradients, matrix-free" : \
            c eq "fft_periodic" ? "FFT filter, periodic" : \
            c eq "fft_mirrored" ? "FFT filter, mirrored" : \
            c eq "gauss_seidel" ? "Gauss-Seidel (CPU, double)" : \
            c eq "cholmod" ? "sparse Cholesky, CHOLMOD (CPU, double)" : \
            c eq "dense_tf32_refined" ? "dense, TF32 products, refined in FP32" : \
            c eq "dense_cusolver_irs" ? "dense, cuBLAS SYRK + cuSOLVER IRS (TF32 LU, refined)" : \
            c eq "dense_ozaki_solve" ? "dense, step-4's kernels with kernel 20 (Ozaki II), two solves" : \
            c eq "dense_ozaki_inverse" ? "dense, step-4's kernels with kernel 20 (Ozaki II), inverse (thesis)" : \
            c eq "fft_mean" ? "FFT filter, the mean PSF" : \
            c eq "fft_piecewise" ? "piecewise FFT, 4 x 4 regions" : \
            c eq "band_mean_psf" ? "band, the mean PSF (invariant)" : \
            c eq "cg_mean_psf" ? "CG, the mean PSF (invariant)" : c)

# An image's title: the method and, where the original is known, its PSNR.
picture_title(m, psnr) = (m eq "original" ? "original\n " : \
                          sprintf("%s\n%s", (m eq "degraded" ? "degraded" : label(m)), \
                                  (psnr eq "" || psnr eq "nan" ? "" : sprintf("PSNR %.2f dB", psnr + 0))))

# A grid of images (sections 0b and 3): no axes, pixels square, grey.
image_grid = "set terminal pngcairo size 1300, 700 enhanced font ',11'; unset key; unset tics; " . \
             "unset border; unset colorbox; unset xlabel; unset ylabel; set size ratio -1; set palette gray"

# ---------------------------------------------------------------- 0: a PSF field
# step-5 --psf lens:... or rotation:... writes varying_KIND_PRECISION.dat (one row
# per image and size; column image: 0 the phantom, 1 the photograph). For each field
# whose table exists (float, else double): the PSNR of every method on the phantom
# and on the photograph, and the time on the phantom, against n (log scale), as
# step-5_varying_KIND.png and .svg. Drawn first: a folder may hold only these.
set datafile missing "NaN"
set grid
set style data linespoints
do for [kind in "lens rotation"] {
  vfile = dir . "/varying_" . kind . "_float.dat"
  if (!has(vfile)) { vfile = dir . "/varying_" . kind . "_double.dat" }
  if (has(vfile)) {
    vcols = cols_of(vfile)
    vimage = index_of(vcols, "image")
    vfirst = index_of(vcols, "degraded_psnr") + 1
    vms = index_of(vcols, "dense_course_solve_ms")
    vlast = index_of(vcols, "cg_iterations") - 1
    vpsnr = with_data(vfile, vfirst, vms - 1)
    vtimes = with_data(vfile, vms, vlast)
    vgpu = gpu_of(vfile)
    rows_of(k) = system(sprintf("awk '!/^#/ && NF && $%d == %d' '%s' | wc -l", vimage, k, vfile)) + 0
    vpanels = (rows_of(0) > 0) + (rows_of(1) > 0) + (rows_of(0) > 0 && words(vtimes) > 0)
    do for [terminal in "png svg"] {
      if (vpanels == 0 || words(vpsnr) == 0) { break }
      panels = vpanels
      eval (terminal eq "png" ? do_png : do_svg)
      set output out . "/step-5_varying_" . kind . "." . terminal
      set logscale x
      set format x "%.0s%c"
      set xlabel "unknowns n = s^2 (an s x s image)"
      set key outside bottom center horizontal noenhanced font ",9" maxrows 5
      set multiplot layout 1,vpanels title "step-5: the " . kind . " field, every method (" . \
          system(sprintf("sed -n 's/^# precision: *//p' '%s'", vfile)) . ", GPU: " . vgpu . ")"
      do for [k = 0:1] {
        if (rows_of(k) > 0) {
          set title (k == 0 ? "PSNR, the phantom" : "PSNR, the photograph")
          set ylabel "PSNR (dB)"
          plot vfile using 1:(column(vimage) == k ? column(vfirst - 1) : NaN) title "degraded" lc rgb "gray" lw 2 dt 2, \
               for [c in vpsnr] vfile using 1:(column(vimage) == k ? column(c + 0) : NaN) \
               title word(vcols, c + 0)[1:strlen(word(vcols, c + 0)) - 5] lc rgb colour(c - vfirst + 1) \
               pt marker(c - vfirst + 1) lw 2
        }
      }
      if (rows_of(0) > 0 && words(vtimes) > 0) {
        set title "time, the phantom"
        set ylabel "time (ms)"
        set logscale y
        set format y "10^{%L}"
        plot for [c in vtimes] vfile using 1:(column(vimage) == 0 ? column(c + 0) : NaN) \
             title no_ms(word(vcols, c + 0)) lc rgb colour(c - vms + 1) pt marker(c - vms + 1) lw 2
        unset logscale y
        set format y
      }
      unset multiplot
      unset logscale; set format x; unset key
    }
  }
}

# ---------------------------------------------------------------- 0b: a PSF field's images
# For each field's float table: the photograph at the largest side it ran (else the
# phantom at the largest side up to 256), through the field: the original, the
# degraded image, the exact model's methods and the FFT's approximations, PSNR in the
# titles, as step-5_varying_KIND_images.png.
varying_pictures = "original degraded band_course_solve cg cholmod fft_mean fft_piecewise band_mean_psf"
varying_psnr(file, rows, k, name) = system(sprintf("awk -v want=%d -v k=%d -v name=%s '/^# n / { for (i = 2; i <= NF; ++i) { if ($i == name \"_psnr\") c = i - 1; if ($i == \"image\") m = i - 1 } } !/^#/ && NF && $2 == want && $m == k { print $c }' '%s'", rows, k, name, file))
largest_side(file, k, most) = system(sprintf("awk -v k=%d -v most=%d '/^# n / { for (i = 2; i <= NF; ++i) if ($i == \"image\") m = i - 1 } !/^#/ && NF && $m == k && $2 <= most && $2 > s { s = $2 } END { print s + 0 }' '%s'", k, most, file)) + 0
do for [kind in "lens rotation"] {
  vfile = dir . "/varying_" . kind . "_float.dat"
  if (has(vfile)) {
    k = (largest_side(vfile, 1, 1024) > 0 ? 1 : 0)
    side = largest_side(vfile, k, k == 1 ? 1024 : 256)
    name = (k == 1 ? "photograph" : "phantom")
    stem = dir . "/images/" . sprintf("varying_%s_%s_s%04d_float_", kind, name, side)
    if (side > 0 && has(stem . "original.png")) {
      eval image_grid
      set output out . "/step-5_varying_" . kind . "_images.png"
      set multiplot layout 2,4 title sprintf("step-5: the %s %d x %d through the %s field, float (GPU: %s)", name, side, side, kind, gpu_of(vfile))
      drawn = 0
      do for [m in varying_pictures] {
        picture = stem . m . ".png"
        if (drawn < 8 && has(picture)) {
          set title picture_title(m, m eq "original" ? "" : varying_psnr(vfile, side, k, m)) noenhanced
          plot picture binary filetype=png with rgbimage
          drawn = drawn + 1
        }
      }
      unset multiplot
      unset title; set tics; set border; set colorbox; set size noratio
    }
  }
}

# ---------------------------------------------------------------- 0c: the restore benchmark
# tools/restore-benchmark writes restore_benchmark.dat (one row per case: a picture, a
# blur, a noise level and a file depth; the pictures and blurs numbered in its header).
# Two panels against the case, grouped by picture and blur: the PSNR gained over the
# degraded picture by the default lambda and by the best lambda in hindsight (a gain
# below 0 is a restoration worse than its input), and how far the default falls short
# of the best, with the goal of 1 dB. Drawn before the sweep's plots: a folder may hold
# only this table.
bench = dir . "/restore_benchmark.dat"
if (has(bench)) {
  bench_cols = system(sprintf("sed -n 's/^# \\(case .*\\)/\\1/p' '%s' | tail -n 1", bench))
  bc(name) = index_of(bench_cols, name)
  bench_gpu = gpu_of(bench)
  do for [terminal in "png svg"] {
    panels = 2
    eval (terminal eq "png" ? do_png : do_svg)
    set output out . "/step-5_restore_benchmark." . terminal
    set multiplot layout 1,2 title "step-5: the default lambda on pictures degraded and stored as files (GPU: " . bench_gpu . ")"
    set grid
    set offsets 0.5, 0.5, 0, 0
    set xlabel "case (picture, blur, noise 0.001/0.01/0.03, 8/16 bits)"
    set key top left noenhanced font ",9"
    set title "PSNR gained over the degraded picture"
    set ylabel "gain (dB)"
    plot bench using (column(bc("case"))):(column(bc("gain_db")) + column(bc("below_best_db"))) \
           title "best lambda in hindsight" with points pt 6 ps 0.8 lc rgb colour(4), \
         bench using (column(bc("case"))):(column(bc("gain_db"))) title "default lambda" with points pt 7 ps 0.6 lc rgb colour(1), \
         0 title "the degraded picture" with lines lc rgb "gray" lw 2 dt 2
    set title "the default lambda's shortfall from the best"
    set ylabel "best - default (dB)"
    set yrange [0:*]
    plot bench using (column(bc("case"))):(column(bc("below_best_db"))) title "shortfall" with impulses lw 2 lc rgb colour(1), \
         1 title "goal: within 1 dB" with lines lc rgb "gray" lw 2 dt 2
    unset multiplot
    unset grid; set offsets 0, 0, 0, 0; set yrange [*:*]
  }
}

tables = has(file_of("times", 1)) + has(file_of("times", 2))
if (tables == 0) { print "step-5/plot.gp: no tables in " . dir; exit }
gpu = gpu_of(file_of("times", has(file_of("times", 1)) ? 1 : 2))
skipped = ""
do for [name in "times stages quality"] {
  do for [f = 1:2] { skipped = left_out(skipped, missing(file_of(name, f))) }
}

set datafile missing "NaN"
set grid
set style data linespoints

# ---------------------------------------------------------------- 1: times
# A panel for each precision in which some method ran (without a GPU, the CPU's
# methods run in the first precision only), a curve for each method that ran.
array times_list[2]
panels = 0
do for [f = 1:2] {
  file = file_of("times", f)
  times_list[f] = ""
  if (has(file)) {
    cols = cols_of(file)
    first = index_of(cols, "cols") + 1
    times_list[f] = with_data(file, first, words(cols))
    skipped = left_out(skipped, empty_columns(file, first, words(cols)))
  }
  panels = panels + (words(times_list[f]) > 0)
}
if (panels == 0) { skipped = left_out(skipped, "the times plot (no method ran)") }
do for [terminal in "png svg"] {
  if (panels == 0) { break }
  eval (terminal eq "png" ? do_png : do_svg)
  set output out . "/step-5_times." . terminal
  set logscale xy
  set format x "%.0s%c"
  set format y "10^{%L}"
  set xlabel "unknowns n = s^2 (an s x s image)"
  set ylabel "time (ms)"
  set key inside top right noenhanced spacing 1.1 font ",10"
  set offsets 0, 0, graph 0.3, 0
  set multiplot layout 1,panels title "step-5: time to restore an image, every method (GPU: " . gpu . ")"
  do for [f = 1:2] {
    file = file_of("times", f)
    if (words(times_list[f]) > 0) {
      set title precision(f)
      cols = cols_of(file)
      first = index_of(cols, "cols") + 1
      plot for [c in times_list[f]] file using 1:(column(c + 0)) title label(no_ms(word(cols, c + 0))) \
           lc rgb colour(c - first + 1) pt marker(c - first + 1) lw 2
    }
  }
  unset multiplot
  unset logscale; unset offsets; set format x; set format y
}

# ---------------------------------------------------------------- 2: stages
# One bar per pipeline at the largest n that has the course's stages; the stages
# stacked in the order they run. The table has one row per size and one column per
# pipeline and stage, so the bars' data are gathered into a datablock first.
stages = "build normal factor invert inverse apply solve"
stage_label(s) = (s eq "build" ? "build H" : s eq "normal" ? "A = H^TH + {/Symbol l}I" : \
                  s eq "factor" ? "Cholesky" : s eq "invert" ? "X = L^{-1}" : \
                  s eq "inverse" ? "A^{-1} = X^TX" : s eq "apply" ? "f = A^{-1}b" : "two solves")
pipelines = "course course cublas cublas cusolver tf32 cusolver_irs ozaki ozaki"
routes = "solve inverse solve inverse solve solve solve solve inverse"
bar_label(b) = (b == 1 ? "step-4, solves" : b == 2 ? "step-4, inverse" : b == 3 ? "cuBLAS, solves" : \
                b == 4 ? "cuBLAS, inverse" : b == 5 ? "cuSOLVER" : b == 6 ? "TF32, refined" : \
                b == 7 ? "cuSOLVER IRS" : b == 8 ? "kernel 20, solves" : "kernel 20, inverse")
# Stages of the solve route: build, normal, factor, solve; of the inverse route: build,
# normal, factor, invert, inverse, apply.
in_route(s, r) = (r eq "solve" ? (s eq "invert" || s eq "inverse" || s eq "apply" ? 0 : 1) : (s eq "solve" ? 0 : 1))
last_row(file, c) = system(sprintf("awk '!/^#/ && NF && tolower($%d) !~ /nan/ { r = $0 } END { print r }' '%s'", c, file))
is_nan(v) = (v eq "NaN" || v eq "nan" || v eq "-nan")
# The row of each precision's panel: none where the course's pipeline never ran (no
# GPU, or a size too large for the dense matrices).
array stage_row[2]
panels = 0
do for [f = 1:2] {
  file = file_of("stages", f)
  stage_row[f] = ""
  if (has(file)) {
    c = index_of(cols_of(file), "course_factor_ms")
    if (has_data(file, c)) { stage_row[f] = last_row(file, c) }
  }
  panels = panels + (stage_row[f] ne "")
}
if (panels == 0) { skipped = left_out(skipped, "the stages plot (no dense pipeline ran)") }
do for [terminal in "png svg"] {
  if (panels == 0) { break }
  eval (terminal eq "png" ? do_png : do_svg)
  set output out . "/step-5_stages." . terminal
  set style data histograms
  set style histogram rowstacked
  set style fill solid 0.85 border -1
  set boxwidth 0.6
  set ylabel "time (ms)"
  unset xlabel
  set key outside right top enhanced font ",10"
  set xtics rotate by -20 noenhanced
  set multiplot layout 1,panels title "step-5: the dense pipelines stage by stage (GPU: " . gpu . ")"
  do for [f = 1:2] {
    file = file_of("stages", f)
    row = stage_row[f]
    if (row ne "") {
      cols = cols_of(file)
      # A pipeline that did not run at this size (the TF32 one needs more memory than
      # the others, and runs in float only) gets no bar, and the title says so.
      set print $bars
      absent = ""
      do for [b = 1:words(pipelines)] {
        line = "\"" . bar_label(b) . "\""
        ran = 0
        do for [s in stages] {
          c = index_of(cols, word(pipelines, b) . "_" . s . "_ms")
          v = (c > 0 && in_route(s, word(routes, b))) ? word(row, c) : "0"
          ran = ran || (c > 0 && in_route(s, word(routes, b)) && !is_nan(v))
          line = line . " " . (is_nan(v) ? "0" : v)
        }
        if (ran) { print line } else { absent = absent . (absent eq "" ? "" : ", ") . bar_label(b) }
      }
      unset print
      set title sprintf("%s, n = %d (a %d x %d image)%s", precision(f), word(row, 1) + 0, word(row, 2) + 0, \
                        word(row, 3) + 0, absent eq "" ? "" : "\nnot run here: " . absent)
      if (absent ne "" && terminal eq "png") {
        skipped = left_out(skipped, sprintf("the stages of %s (%s, n = %d: not run)", absent, precision(f), word(row, 1) + 0))
      }
      plot for [i = 1:7] $bars using i + 1:xtic(1) title stage_label(word(stages, i)) lc rgb colour(i)
      undefine $bars
    }
  }
  unset multiplot
  set style data linespoints
  set xtics norotate
}

# ---------------------------------------------------------------- 3: images
# A grid of the images of one restoration, each titled with its PSNR (from the
# quality table) where the original is known.
eval image_grid
# The first eight of these that the run wrote: the GPU's methods, then the CPU's (all
# that a run without a GPU has).
picture_methods = "original degraded dense_course_solve dense_cusolver band_course_solve cg fft_periodic fft_mirrored " . \
                  "gauss_seidel cholmod"
psnr_in(file, rows, name) = system(sprintf("awk -v want=%d -v name=%s '/^# n / { for (i = 2; i <= NF; ++i) if ($i == name \"_psnr\") c = i - 1 } !/^#/ && NF && $2 == want { print $c }' '%s'", rows, name, file))
# figure(output, prefix of the images, quality table, rows of the image, heading)
do for [figure = 1:2] {
  if (figure == 1) {
    quality = file_of("quality", 1)
    sides = has(quality) ? system(sprintf("awk '!/^#/ && NF { print $2 }' '%s'", quality)) : ""
    side = 0
    do for [s in sides] { if (s + 0 <= 128 && s + 0 > side) { side = s + 0 } }
    stem = dir . "/images/" . sprintf("s%03d_float_", side)
    output = out . "/step-5_phantom.png"
    heading = sprintf("step-5: the %d x %d phantom, float", side, side)
  } else {
    quality = dir . "/image_quality_float.dat"
    side = has(quality) ? system(sprintf("awk '!/^#/ && NF { print $2 }' '%s'", quality)) + 0 : 0
    stem = dir . "/images/image_float_"
    output = out . "/step-5_image.png"
    heading = "step-5: an image of your own (--image), float"
  }
  if (side > 0 && has(stem . "original.png")) {
    set output output
    set multiplot layout 2,4 title heading . " (GPU: " . gpu . ")"
    drawn = 0
    do for [m in picture_methods] {
      picture = stem . m . ".png"
      if (drawn < 8 && has(picture)) {
        set title picture_title(m, m eq "original" ? "" : psnr_in(quality, side, m)) noenhanced
        plot picture binary filetype=png with rgbimage
        drawn = drawn + 1
      }
    }
    unset multiplot
  } else {
    skipped = left_out(skipped, figure == 1 ? "the phantom's images (none written)" : "step-5_image.png (no --image run)")
  }
}

if (skipped ne "") { print "step-5/plot.gp: left out " . skipped }
