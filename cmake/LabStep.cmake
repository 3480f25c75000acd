# lab_add_step: everything a step needs, from a few lines in its CMakeLists.
#
#   lab_add_step(step-1
#     LIBRARY   cholesky_cpu.cpp single_thread_cholesky.cu     kernels and CPU code
#     LINKS     step2                                          earlier steps it uses
#     TESTS     tests/cholesky_cpu_test.cpp                    Catch2, run everywhere
#     GPU_TESTS tests/single_thread_cholesky_gpu_test.cpp      Catch2, skipped without GPU
#     LITERATE  cholesky_loop.h ... step-1.cu)                 the order of the docs page
#
# It creates
#   step1             the step's library (namespace step1): LIBRARY sources; later steps
#                     link it
#   step-1            the program, from step-1.cu
#   run-step-1        runs the program in quick mode from the top of the source tree
#   step-1-tests      the CPU tests;      CTest: step-1/cpu and step-1/planted/cpu
#   step-1-gpu-tests  the GPU tests;      CTest: step-1/gpu and step-1/planted/gpu
#                                         (exit 77 = skipped, see lab_add_catch_tests)
# and the CTest cases step-1/quick-run (the whole program in quick mode: its checks
# must pass) and step-1/refuses/* (bad command lines, sizes too large for the memory
# and unwritable output folders must exit with code 2).
# The LITERATE list is recorded for the documentation (docs/CMakeLists.txt).
function(lab_add_step name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LIBRARY;LINKS;TESTS;GPU_TESTS;LITERATE")
  string(REPLACE "-" "" lib ${name})

  add_library(${lib} STATIC ${arg_LIBRARY})
  target_include_directories(${lib} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${lib} PUBLIC lab_common ${arg_LINKS})

  add_executable(${name} ${name}.cu)
  target_link_libraries(${name} PRIVATE ${lib})

  # The course's code compiles without warnings, on the host side of .cu files too.
  foreach(target ${lib} ${name})
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
      $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
  endforeach()

  add_custom_target(run-${name}
    COMMAND $<TARGET_FILE:${name}> --quick
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    USES_TERMINAL
    COMMENT "Running ${name} in quick mode")

  if(arg_TESTS)
    add_executable(${name}-tests ${arg_TESTS})
    target_link_libraries(${name}-tests PRIVATE ${lib} lab_test_main)
    lab_add_catch_tests(${name} cpu ${name}-tests ${arg_TESTS})
  endif()
  if(arg_GPU_TESTS)
    add_executable(${name}-gpu-tests ${arg_GPU_TESTS})
    target_link_libraries(${name}-gpu-tests PRIVATE ${lib} lab_gpu_test_main)
    lab_add_catch_tests(${name} gpu ${name}-gpu-tests ${arg_GPU_TESTS})
  endif()

  # The program checks itself: in quick mode every check must pass (exit code 0); on a
  # machine without a GPU its CPU part runs and the GPU part says it was skipped.
  add_test(NAME ${name}/quick-run
    COMMAND ${name} --quick --out ${CMAKE_BINARY_DIR}/test-results)
  # Its tables are what the test plots/quick-run draws (top-level CMakeLists.txt).
  set_tests_properties(${name}/quick-run PROPERTIES FIXTURES_SETUP lab_quick_results)

  # Every step shares the command line of lab/cli.h, so every step must refuse the same
  # bad arguments with a one-line error naming the argument and exit code 2. Each
  # regular expression is the error's own text with the value refused: a bare option
  # name would also match the usage line that every refusal prints, so any refusal
  # would pass any of these tests (step-1/planted/refusal-of-another-error shows it).
  lab_expect_exit(${name}/refuses/unknown-flag 2 "error: The following argument was not expected: --no-such-flag"
    ${name} --no-such-flag)
  lab_expect_exit(${name}/refuses/sizes-abc 2 "error: --sizes: 'abc'" ${name} --sizes abc)
  lab_expect_exit(${name}/refuses/sizes-0 2 "error: --sizes: '0'" ${name} --sizes 0)
  # CLI11 alone would drop the empty piece and run sizes 3 and 4.
  lab_expect_exit(${name}/refuses/sizes-empty 2 "error: --sizes: '3,,4' has an empty size" ${name} --sizes 3,,4)
  lab_expect_exit(${name}/refuses/precision-half 2 "error: --precision: half not in \\{float,double,both\\}"
    ${name} --precision half)
  lab_expect_exit(${name}/refuses/reps-0 2 "error: --reps: '0' is not a positive integer" ${name} --reps 0)
  # Impossible work is refused before it starts: a size no machine has memory for (a
  # million squared is 4 TB of floats) and an output folder that cannot be created.
  # Each must end at once, not after the sweep: a refusal whose output holds a line of
  # work fails (cmake/ExpectExit.cmake), and the timeout of every refusal test
  # (lab_expect_exit) catches a program that starts working and prints nothing.
  lab_expect_exit(${name}/refuses/size-too-large 2 "n = 1000000 \\(.*\\) needs .* of host memory"
    ${name} --sizes 1000000)
  lab_expect_exit(${name}/refuses/unwritable-out 2 "cannot write to the output folder '/proc/nope"
    ${name} --out /proc/nope)

  set_property(GLOBAL APPEND PROPERTY LAB_STEPS ${name})
  set(literate)
  foreach(file IN LISTS arg_LITERATE)
    list(APPEND literate ${CMAKE_CURRENT_SOURCE_DIR}/${file})
  endforeach()
  set_property(GLOBAL PROPERTY LAB_STEP_${name}_LITERATE ${literate})
  # The test sources, for the check that every exercise has tagged tests
  # (docs/tests/check_exercise_registry.cmake).
  set(test_sources)
  foreach(file IN LISTS arg_TESTS arg_GPU_TESTS)
    list(APPEND test_sources ${CMAKE_CURRENT_SOURCE_DIR}/${file})
  endforeach()
  set_property(GLOBAL PROPERTY LAB_STEP_${name}_TESTS ${test_sources})
  set_property(GLOBAL PROPERTY LAB_STEP_${name}_DIR ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()

# lab_expect_exit(test-name exit-code regex target [args...]): a CTest case that runs the
# target with the arguments and passes when the exit code is the expected one and the
# output matches the regular expression (cmake/ExpectExit.cmake does the checking).
#
# A refusal (exit code 2) comes before any work, in a fraction of a second, so its test
# gets a timeout of 30 s. Without one it would get CTest's default, 1500 s: when the
# refusal goes missing, the program starts the work it should have refused (step-3
# with --reps 0 ran its whole default sweep), and the test would run for 25 minutes
# before it failed. cmake/CheckTimeouts.cmake (the test course/refusal-timeouts) holds
# every refusal test of the course to it.
function(lab_expect_exit test code regex target)
  # CMake lists are ';'-separated, and a ';' does not survive the trip through
  # add_test intact: the arguments travel joined by '|' instead.
  list(JOIN ARGN "|" arguments)
  add_test(NAME ${test}
    COMMAND ${CMAKE_COMMAND}
      "-DPROGRAM=$<TARGET_FILE:${target}>" "-DARGUMENTS=${arguments}" -DEXPECTED_EXIT=${code} "-DEXPECTED_OUTPUT=${regex}"
      -P ${PROJECT_SOURCE_DIR}/cmake/ExpectExit.cmake)
  if(code EQUAL 2)
    set_tests_properties(${test} PROPERTIES TIMEOUT 30)
  endif()
endfunction()

# lab_expect_required(test skipped-regex failed-regex target [args...]): a CTest case
# that runs the target without and with LAB_REQUIRE_GPU=1 (cmake/RequireGpu.cmake): if
# the plain run's output matches skipped-regex (it skipped), the required run must fail
# and print failed-regex; if it did not skip, both runs must pass.
function(lab_expect_required test skipped failed target)
  list(JOIN ARGN "|" arguments)
  add_test(NAME ${test}
    COMMAND ${CMAKE_COMMAND}
      "-DPROGRAM=$<TARGET_FILE:${target}>" "-DARGUMENTS=${arguments}" "-DSKIPPED_BY=${skipped}"
      "-DFAILED_BY=${failed}" -P ${PROJECT_SOURCE_DIR}/cmake/RequireGpu.cmake)
endfunction()

# lab_add_catch_tests(part kind target sources...): the CTest cases of one Catch2 test
# program of `part` (a step or common), `kind` cpu or gpu: part/kind runs every test
# case. The planted faults, the test cases named "planted: ..." (each feeds a check a
# wrong answer and asserts that it FAILs), run once more on their own as
# part/planted/kind, so that `ctest -R planted` runs every planted fault of the course
# and nothing else. GPU programs exit with 77 without a device, which CTest reports as
# skipped (and LAB_REQUIRE_GPU=1 turns into a failure).
function(lab_add_catch_tests part kind target)
  add_test(NAME ${part}/${kind} COMMAND ${target})
  set(tests ${part}/${kind})
  set(planted FALSE)
  foreach(source IN LISTS ARGN)
    file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/${source} lines REGEX "TEST_CASE\\(\"planted:")
    if(lines)
      set(planted TRUE)
    endif()
  endforeach()
  if(planted)
    add_test(NAME ${part}/planted/${kind} COMMAND ${target} "planted:*")
    list(APPEND tests ${part}/planted/${kind})
  endif()
  if(kind STREQUAL "gpu")
    set_tests_properties(${tests} PROPERTIES SKIP_RETURN_CODE 77)
  endif()
endfunction()
