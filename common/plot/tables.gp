# What every step's plot.gp needs to read the course's tables (lab::Table's .dat files):
#   load (dirname of the script) . "/../common/plot/tables.gp"
# Columns are found by name, never by number, so that a step can add a variant without
# touching its plot script.

has(file) = system(sprintf("test -f '%s' && echo 1 || echo 0", file)) + 0
# The GPU's name: the "# gpu:" header line of a table, up to the first comma.
gpu_of(file) = system(sprintf("sed -n 's/^# gpu: *\\([^,]*\\).*/\\1/p' '%s' | head -n 1", file))
# Column names: the last "# n ..." line, without its "# ".
cols_of(file) = system(sprintf("sed -n 's/^# \\(n .*\\)/\\1/p' '%s' | tail -n 1", file))
# The number of the column called `name` (0 if there is none).
index_of(cols, name) = system(sprintf("echo '%s' | awk '{ for (i = 1; i <= NF; ++i) if ($i == \"%s\") { print i; exit } print 0 }'", cols, name)) + 0
# Of the columns first..last, those with at least one number that is not NaN, as a
# list such as "6 7 9" (empty if none).
with_data(file, first, last) = (first < 1 || last < first) ? "" : \
  system(sprintf("awk '!/^#/ && NF { for (i = %d; i <= %d; ++i) if (tolower($i) !~ /nan/) seen[i] = 1 } END { s = \"\"; for (i = %d; i <= %d; ++i) if (i in seen) s = s \" \" i; print s }' '%s'", \
                 first, last, first, last, file))
# Whether column c holds at least one number that is not NaN.
has_data(file, c) = (words(with_data(file, c, c)) > 0)
no_ms(s) = (s[strlen(s) - 2:] eq "_ms" ? s[1:strlen(s) - 3] : s)   # "lo_update_ms" -> "lo_update"

# What a plot leaves out, said in one line at the end of each script (`make plots`
# and the test plots/* read it): a run without a GPU writes its tables with NaN in
# the GPU's columns and leaves out the GPU's tables, and a plot draws what there is.
# A script collects the items with left_out and prints them once:
#   skipped = left_out(skipped, missing(file))
#   skipped = left_out(skipped, empty_columns(file, first, last))
#   if (skipped ne "") { print "step-N/plot.gp: left out " . skipped }
left_out(list, item) = (item eq "" ? list : list eq "" ? item : list . "; " . item)
# "solve_float.dat (missing)", or "" when the file is there.
missing(file) = (has(file) ? "" : system(sprintf("basename '%s'", file)) . " (missing)")
# Of the columns first..last, those that hold only NaN (not run), by name:
# "cholesky_float.dat: gpu_kernel_ms gpu_total_ms (all NaN)", or "" when each has a
# number. Plotting such a column would be a gnuplot warning and a curve that is not
# there.
empty_columns(file, first, last) = (first < 1 || last < first || !has(file)) ? "" : \
  system(sprintf("awk '/^# n / { for (i = 2; i <= NF; ++i) name[i - 1] = $i } !/^#/ && NF { for (i = %d; i <= %d; ++i) if (tolower($i) !~ /nan/) seen[i] = 1 } END { s = \"\"; for (i = %d; i <= %d; ++i) if (!(i in seen)) s = s (s == \"\" ? \"\" : \" \") name[i]; f = FILENAME; sub(/.*\\//, \"\", f); if (s != \"\") print f \": \" s \" (all NaN)\" }' '%s'", \
                 first, last, first, last, file))

# The variants' colours and markers, by variant number, the same in every plot.
colours = "#d62728 #ff7f0e #2ca02c #1f77b4 #9467bd #8c564b #e377c2 #17becf #bcbd22 #7f7f7f #393b79 #637939"
colour(v) = word(colours, 1 + (v - 1) % words(colours))
marker(v) = 4 + 2 * ((v - 1) % 6)    # open square, circle, triangle, ...
precision(f) = (f == 1 ? "float" : "double")

