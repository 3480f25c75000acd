# Every refusal test must end within a short timeout. Used by the tests
# course/refusal-timeouts and course/planted/refusal-without-timeout (top-level
# CMakeLists.txt).
#   cmake -DCTEST=ctest -DBUILD_DIR=<build folder> -P CheckTimeouts.cmake
#   cmake -DTESTS_JSON=<file> -P CheckTimeouts.cmake      (a list of tests written by hand)
#
# A refusal comes before any work, in a fraction of a second. A refusal test without a
# timeout of its own gets CTest's default, 1500 s: when the refusal goes missing (a
# check removed from the command line's parser), the program starts the work it should
# have refused, and with --reps 0 that was step-3's whole default sweep. With a short
# timeout the test fails in seconds and says why. The refusal tests are those named
# */refuses/* and every test that expects exit code 2 (cmake/ExpectExit.cmake), however
# it is named.
set(longest 60)
if(TESTS_JSON)
  file(READ "${TESTS_JSON}" json)
else()
  execute_process(COMMAND "${CTEST}" --show-only=json-v1 WORKING_DIRECTORY "${BUILD_DIR}"
    OUTPUT_VARIABLE json RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "ctest --show-only=json-v1 failed in ${BUILD_DIR}")
  endif()
endif()

string(JSON count LENGTH "${json}" tests)
set(refusals 0)
set(problems "")
math(EXPR last "${count} - 1")
foreach(t RANGE ${last})
  string(JSON name GET "${json}" tests ${t} name)
  string(JSON command ERROR_VARIABLE no_command GET "${json}" tests ${t} command)
  if(NOT name MATCHES "/refuses/" AND NOT command MATCHES "\"-DEXPECTED_EXIT=2\"")
    continue()
  endif()
  math(EXPR refusals "${refusals} + 1")
  set(timeout "")
  string(JSON properties ERROR_VARIABLE no_properties GET "${json}" tests ${t} properties)
  if(NOT no_properties)
    string(JSON p_count LENGTH "${properties}")
    if(p_count GREATER 0)
      math(EXPR p_last "${p_count} - 1")
      foreach(p RANGE ${p_last})
        string(JSON p_name GET "${properties}" ${p} name)
        if(p_name STREQUAL "TIMEOUT")
          string(JSON timeout GET "${properties}" ${p} value)
        endif()
      endforeach()
    endif()
  endif()
  if(timeout STREQUAL "")
    string(APPEND problems "\n  ${name}: no TIMEOUT (CTest's default is 1500 s)")
  elseif(timeout GREATER ${longest})
    string(APPEND problems "\n  ${name}: TIMEOUT ${timeout} s, more than ${longest} s")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "refusal tests without a short timeout:${problems}")
endif()
if(refusals EQUAL 0)
  message(FATAL_ERROR "no refusal test found: nothing was checked")
endif()
message(STATUS "all ${refusals} refusal tests end within ${longest} s")
