# Runs every step's plot.gp over one folder of tables, as `make plots` does, and fails
# on anything a reader of the plots would trip over. Used by the tests plots/* (the
# top-level CMakeLists.txt).
#   cmake -DGNUPLOT=gnuplot -DSOURCE_DIR=<the course> -DTABLES=<folder of step-N/>
#         -DOUT=<folder for the plots> -P CheckPlots.cmake
#
# Each plot.gp must, for every step folder of TABLES that holds a table:
# - end with exit code 0 (gnuplot stops at the first error: a missing file, a column
#   that is all NaN on a logarithmic axis, text where a number should be);
# - print no warning: gnuplot names the script's line in every error and warning
#   ("plot.gp" line 72: warning: Skipping data file with no valid points), and a
#   warning means a plot drawn without what it was meant to show;
# - say what it skipped in at most one line, starting with its own name;
# - write at least one plot, into OUT and not into TABLES (the committed results stay
#   as they are).
#
# Where gnuplot is missing, the test is skipped, and says so in one line: exit code 77
# (SKIP_RETURN_CODE) where CMake can end a script with one (3.29 and later), and the
# line "skipped: gnuplot not found" (SKIP_REGULAR_EXPRESSION) everywhere. With
# LAB_REQUIRE_GNUPLOT=1 in the environment (CI) it fails instead.
find_program(gnuplot_found NAMES "${GNUPLOT}" NO_CACHE)
if(NOT gnuplot_found)
  if("$ENV{LAB_REQUIRE_GNUPLOT}" STREQUAL "1")
    message(FATAL_ERROR "gnuplot not found (${GNUPLOT}), and LAB_REQUIRE_GNUPLOT=1 requires it")
  endif()
  message("skipped: gnuplot not found (${GNUPLOT})")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
    cmake_language(EXIT 77)
  endif()
  return()
endif()
if(NOT IS_DIRECTORY "${TABLES}")
  message(FATAL_ERROR "no folder of tables at ${TABLES}")
endif()
file(GLOB steps RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/step-*/plot.gp")
# The plots in a folder of tables, with their times: what a run must leave as it was.
function(plots_in folder result)
  file(GLOB plots "${folder}/*.png" "${folder}/*.svg")
  set(stamps "")
  foreach(plot IN LISTS plots)
    file(TIMESTAMP "${plot}" time "%s")
    list(APPEND stamps "${plot}@${time}")
  endforeach()
  set(${result} "${stamps}" PARENT_SCOPE)
endfunction()

set(plotted 0)
set(failures "")
foreach(script IN LISTS steps)
  get_filename_component(step "${script}" DIRECTORY)
  file(GLOB tables "${TABLES}/${step}/*.dat")
  if(NOT tables)
    continue()
  endif()
  set(out "${OUT}/${step}")
  file(REMOVE_RECURSE "${out}")
  file(MAKE_DIRECTORY "${out}")
  plots_in("${TABLES}/${step}" before)
  execute_process(COMMAND "${GNUPLOT}" -e "dir='${TABLES}/${step}'; out='${out}'" "${SOURCE_DIR}/${script}"
    RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
  string(STRIP "${output}" output)
  string(REGEX MATCHALL "\n" newlines "${output}")
  list(LENGTH newlines extra_lines)
  file(GLOB plots "${out}/*.png")
  plots_in("${TABLES}/${step}" after)
  set(problem "")
  if(NOT code EQUAL 0)
    set(problem "exit code ${code}")
  elseif(output MATCHES "[Ww]arning|line [0-9]+:")
    set(problem "a gnuplot warning or error")
  elseif(extra_lines GREATER 0 OR (output AND NOT output MATCHES "^${step}/plot.gp: "))
    set(problem "more than one line, or a line that does not name ${step}/plot.gp")
  elseif(NOT plots)
    set(problem "no plot written into ${out}")
  endif()
  if(NOT before STREQUAL after)
    set(problem "it wrote plots into the folder of tables")
  endif()
  if(problem)
    string(APPEND failures "\n${step}/plot.gp on ${TABLES}/${step}: ${problem}; its output:\n${output}\n")
  else()
    list(LENGTH plots count)
    message(STATUS "${step}: ${count} plots. ${output}")
    math(EXPR plotted "${plotted} + 1")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
if(plotted EQUAL 0)
  message(FATAL_ERROR "no step folder with tables in ${TABLES}")
endif()
