# The test docs/exercises: the course's exercise markers must be well formed, every
# name must be used once in the whole course, and every step must have at least
# three exercises.
#
#   cmake -DTOOL=<lab_literate> -DROOT=<source tree> -DSOURCES=<a|b|...>
#         -DSTEPS=<step-1|step-2|...> -DLIST=<exercises.txt> -P this
#
# SOURCES are the steps' LITERATE files, relative to ROOT; the list that
# `lab_literate exercises` prints is written to LIST and shown in the test's output
# (ctest -V -R docs/exercises).
include(${CMAKE_CURRENT_LIST_DIR}/exercise_list.cmake)
string(REPLACE "|" ";" STEPS "${STEPS}")
lab_read_exercise_list(list)
file(WRITE ${LIST} "${list}")
message(STATUS "The course's exercises (file:lines, name, difficulty, task):\n${list}")

set(minimum 3)
set(short "")
foreach(step IN LISTS STEPS)
  string(REGEX MATCHALL "(^|\n)${step}/[^\n]*" found "${list}")
  list(LENGTH found count)
  if(count LESS minimum)
    string(APPEND short " ${step} (${count})")
  endif()
endforeach()
if(short)
  message(FATAL_ERROR "fewer than ${minimum} exercises in:${short}")
endif()
