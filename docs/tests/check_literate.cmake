# The test docs/literate: lab_literate must turn the fixture step-0 into exactly the
# files in expected/, and must refuse a broken source.
#
#   cmake -DTOOL=<lab_literate> -DTESTS=<docs/tests> -DWORK=<scratch folder> -P this
#
# After a deliberate change to the filter's output, look at the difference
# (the failure message prints the diff command) and copy the new file over the
# expected one.
set(step ${TESTS}/step-0)
set(source ${step}/step-0.cu)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# lab_literate <args>, with its standard output written to <stdout-file>; it must
# succeed.
function(run_tool stdout_file)
  execute_process(COMMAND ${TOOL} ${ARGN}
    OUTPUT_FILE ${stdout_file} ERROR_VARIABLE errors RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "lab_literate ${ARGN} failed with exit code ${code}:\n${errors}")
  endif()
endfunction()

run_tool(${WORK}/commented.txt commented step-0 ${source})
run_tool(${WORK}/plain.txt plain ${source})
run_tool(${WORK}/page.log page step-0 ${step} ${WORK}/step-0.md ${WORK}/plain/step-0
  ${source})
run_tool(${WORK}/mainpage.log mainpage ${WORK}/mainpage.md ${step})
# The list of exercises names the files as they were given: relative to TESTS here.
include(${CMAKE_CURRENT_LIST_DIR}/exercise_list.cmake)
set(ROOT ${TESTS})
set(SOURCES step-0/step-0.cu)
lab_read_exercise_list(exercises)
file(WRITE ${WORK}/exercises.txt "${exercises}")

# Each output against its expected file; the plain copy that the page includes is
# the plain program.
set(failures "")
foreach(pair commented.txt:commented.txt plain.txt:plain.txt step-0.md:step-0.md
    mainpage.md:mainpage.md plain/step-0/step-0.cu:plain.txt exercises.txt:exercises.txt)
  string(REPLACE ":" ";" pair ${pair})
  list(GET pair 0 actual)
  list(GET pair 1 expected)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files --ignore-eol
    ${WORK}/${actual} ${TESTS}/expected/${expected} RESULT_VARIABLE differs)
  if(differs)
    string(APPEND failures
      "\n  diff -u ${TESTS}/expected/${expected} ${WORK}/${actual}")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "lab_literate's output differs from the expected:${failures}")
endif()

# A `// @cond SKIP` without its `// @endcond` is an error that names the file.
execute_process(COMMAND ${TOOL} commented step-0 ${TESTS}/unclosed_skip.cpp
  OUTPUT_QUIET ERROR_VARIABLE errors RESULT_VARIABLE code)
if(NOT code EQUAL 1 OR NOT errors MATCHES "unclosed_skip.cpp: .*@endcond")
  message(FATAL_ERROR "an unclosed @cond SKIP must fail with exit code 1 and name "
    "the file; got exit code ${code}: ${errors}")
endif()
# Each broken exercise in exercises/ is refused by every mode that reads a source,
# in one line that names the file, the line and the fault:
#   <fixture>:<line>:<what the error must say>
foreach(case
    "unclosed.cpp:4:`// @exercise\\{unclosed, \\.\\.\\.\\}` without `// @end-exercise"
    "end_without_opening.cpp:5:`// @end-exercise` without `// @exercise"
    "nested.cpp:7:exercise 'inner' inside exercise 'outer' \\(line 4\\): exercises do not nest"
    "bad_difficulty.cpp:4:exercise 'too_hard' has difficulty 4: it must be 1 \\(easy\\), 2 or 3 \\(hard\\)"
    "duplicate_name.cpp:12:exercise 'twice' is already used at line 4"
    "no_task.cpp:4:exercise 'no_task' has no task")
  string(REGEX MATCH "^([^:]*):([0-9]*):(.*)$" _ "${case}")
  set(fixture ${CMAKE_MATCH_1})
  set(expected "${fixture}:${CMAKE_MATCH_2}: ${CMAKE_MATCH_3}")
  foreach(mode commented plain exercises)
    if(mode STREQUAL "commented")
      set(arguments commented step-0)
    else()
      set(arguments ${mode})
    endif()
    execute_process(COMMAND ${TOOL} ${arguments} ${TESTS}/exercises/${fixture}
      OUTPUT_QUIET ERROR_VARIABLE errors RESULT_VARIABLE code)
    string(REGEX MATCHALL "\n" newlines "${errors}")
    list(LENGTH newlines lines)
    if(NOT code EQUAL 1 OR NOT lines EQUAL 1 OR NOT errors MATCHES "${expected}")
      message(FATAL_ERROR "lab_literate ${mode} on exercises/${fixture} must fail with "
        "exit code 1 and one line matching '${expected}'; got exit code ${code}: ${errors}")
    endif()
  endforeach()
endforeach()

# Two files that are right alone but use one exercise name: the list refuses them,
# naming both places.
execute_process(COMMAND ${TOOL} exercises step-0/step-0.cu exercises/same_name_as_step_0.cpp
  WORKING_DIRECTORY ${TESTS} OUTPUT_QUIET ERROR_VARIABLE errors RESULT_VARIABLE code)
if(NOT code EQUAL 1 OR NOT errors MATCHES
    "same_name_as_step_0.cpp:5: exercise name 'sum_vector' is already used at step-0/step-0.cu:18")
  message(FATAL_ERROR "an exercise name used in two files must fail with exit code 1 "
    "and name both places; got exit code ${code}: ${errors}")
endif()
message(STATUS "lab_literate: all outputs as expected")
