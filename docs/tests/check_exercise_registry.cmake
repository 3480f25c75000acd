# The test docs/exercise-registry: every exercise marked in the sources can be given
# feedback and graded (tools/exercise), so
# - it has exactly one lab_add_exercise line (cmake/LabExercise.cmake) in its own step,
#   and every such line names a marked exercise;
# - unless it lives in the step's program (step-N/step-N.cu, checked by the program's
#   run), at least one Catch2 test case of its step is tagged with its name, "[name]".
#
#   cmake -DTOOL=<lab_literate> -DROOT=<source tree> -DSOURCES=<a|b|...>
#         -DTIMINGS=<exercises/timings.txt> -DTESTS=<step:file|...> -P this
#
# SOURCES are the steps' LITERATE files relative to ROOT, TESTS the steps' test
# sources (absolute paths) after the step's name.
cmake_minimum_required(VERSION 3.24)
include(${CMAKE_CURRENT_LIST_DIR}/exercise_list.cmake)
string(REPLACE "|" ";" TESTS "${TESTS}")
lab_read_exercise_list(list)
string(REPLACE "\n" ";" list "${list}")
file(STRINGS ${TIMINGS} timings)

set(problems "")
set(names "")
foreach(line IN LISTS list)
  if(NOT line MATCHES "^(([^/]+)/[^:]+):[^\t]*\t([^\t]+)\t")
    continue()
  endif()
  set(file ${CMAKE_MATCH_1})
  set(step ${CMAKE_MATCH_2})
  set(name ${CMAKE_MATCH_3})
  list(APPEND names ${name})

  set(found 0)
  foreach(timing IN LISTS timings)
    if(timing MATCHES "^${name}\t([^\t]+)\t")
      math(EXPR found "${found} + 1")
      if(NOT CMAKE_MATCH_1 STREQUAL step)
        string(APPEND problems "\n  ${name}: its lab_add_exercise is in ${CMAKE_MATCH_1}, its marker in ${step}")
      endif()
    endif()
  endforeach()
  if(found EQUAL 0)
    string(APPEND problems "\n  ${name} (${file}): no lab_add_exercise(${name} ...) in ${step}/CMakeLists.txt")
  elseif(found GREATER 1)
    string(APPEND problems "\n  ${name}: ${found} lab_add_exercise lines")
  endif()

  if(file STREQUAL "${step}/${step}.cu")
    message(STATUS "${name}: checked by the run of ${step}")
    continue()
  endif()
  set(tagged "")
  foreach(test IN LISTS TESTS)
    if(test MATCHES "^${step}:(.*)$")
      file(STRINGS ${CMAKE_MATCH_1} cases REGEX "TEST_CASE\\(.*\\[${name}\\]")
      list(LENGTH cases count)
      if(count GREATER 0)
        get_filename_component(test_name ${CMAKE_MATCH_1} NAME)
        list(APPEND tagged "${test_name} (${count})")
      endif()
    endif()
  endforeach()
  if(tagged)
    list(JOIN tagged ", " tagged)
    message(STATUS "${name}: test cases tagged [${name}] in ${tagged}")
  else()
    string(APPEND problems "\n  ${name}: no test case of ${step} is tagged [${name}]")
  endif()
endforeach()

foreach(timing IN LISTS timings)
  if(timing MATCHES "^([^\t]+)\t" AND NOT CMAKE_MATCH_1 IN_LIST names)
    string(APPEND problems "\n  lab_add_exercise(${CMAKE_MATCH_1} ...) names no marked exercise")
  endif()
endforeach()

if(problems)
  message(FATAL_ERROR "the exercises cannot all be given feedback:${problems}")
endif()
list(LENGTH names count)
message(STATUS "all ${count} exercises have their timing run and their tests")
