# Run PROGRAM with ARGUMENTS ('|'-separated) and check its exit code and output. Used by
# lab_expect_exit.
#   -DPROGRAM=...  -DARGUMENTS=--sizes|abc  -DEXPECTED_EXIT=2  -DEXPECTED_OUTPUT=<regex>
# A refusal (exit code 2) is one error line on stderr, followed by the usage line when
# the command line was bad; any other error says what went wrong in one line on
# stderr. (The program's header may precede a refusal on stdout: it says which GPU the
# memory was compared with.)
string(REPLACE "|" ";" arguments "${ARGUMENTS}")
execute_process(COMMAND ${PROGRAM} ${arguments}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT code STREQUAL EXPECTED_EXIT)
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECTED_EXIT}; output:\n${all}")
endif()
if(NOT all MATCHES "${EXPECTED_OUTPUT}")
  message(FATAL_ERROR "output does not match '${EXPECTED_OUTPUT}':\n${all}")
endif()
function(count_lines text result)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines lines)
  set(${result} ${lines} PARENT_SCOPE)
endfunction()
# A refusal comes before any work: its output may hold the program's header, never a
# line that only work prints. Those are the same in every step: a check's verdict
# (PASS or FAIL, last on a result's line), the start of a precision's sweep (its
# machine epsilon), a table written, the verification summary.
set(work_lines "[ \t](PASS|FAIL)\n|machine epsilon|table written|verification:")
if(EXPECTED_EXIT EQUAL 2 AND all MATCHES "${work_lines}")
  string(STRIP "${CMAKE_MATCH_0}" work)
  message(FATAL_ERROR "printed a line of work before the refusal ('${work}'):\n${all}")
endif()
if(EXPECTED_EXIT EQUAL 2)
  count_lines("${err}" lines)
  if(lines GREATER 2)
    message(FATAL_ERROR "a refusal should be one error line and at most one usage line, got:\n${err}")
  endif()
else()
  count_lines("${err}" lines)
  if(lines GREATER 1)
    message(FATAL_ERROR "an error should be one line on stderr, got:\n${err}")
  endif()
endif()
message(STATUS "exit code ${code} as expected: ${all}")
