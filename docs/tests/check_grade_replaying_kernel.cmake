# The test docs/planted/grade-replaying-kernel (GPU only; without one it says
# "skipped: no GPU", which CTest reports as skipped): a student's naive_product that computes C only where C holds no number
# yet, and otherwise returns at once, keeping what it finds there. Timed beside the
# vendor, whose run leaves the right answer in C just before, it would do nothing at
# all and still be right: a time of microseconds. The grading must not give that a
# PASS with that time: C is poisoned before every timed run (so the kernel finds NaN
# and has to compute), every run's result is checked, and a time below what the GPU's
# peak allows for 2n³ flops is refused as impossible. It grades a copy holding only
# the course's CMakeLists, the list of blanked names and the cheating kernel (the
# grader takes nothing else from a copy) and passes when the row is a FAIL, or a PASS
# whose time is at least half the course's own.
#
#   cmake -DROOT=<source tree> -DCOURSE_BUILD=<build folder> -DWORK=<folder> -P this
execute_process(COMMAND ${COURSE_BUILD}/step-4/step-4-gpu-tests --list-tests
  RESULT_VARIABLE code OUTPUT_QUIET ERROR_QUIET)
if(code EQUAL 77)
  if("$ENV{LAB_REQUIRE_GPU}" STREQUAL "1")
    message(FATAL_ERROR "no GPU, and LAB_REQUIRE_GPU=1 requires one")
  endif()
  message("skipped: no GPU, the replaying kernel cannot be timed here")
  return()
endif()

set(copy ${WORK}/replay/lab-course)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${copy}/step-4/kernels ${copy}/common/src)
file(COPY ${ROOT}/CMakeLists.txt DESTINATION ${copy})
file(COPY ${ROOT}/common/src/exercises.cpp DESTINATION ${copy}/common/src)
file(READ ${ROOT}/step-4/kernels/1_naive.cuh kernel)
set(honest "    float sum = 0;\n    for (int p = 0; p < g.shape.k; ++p)")
string(FIND "${kernel}" "${honest}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "step-4/kernels/1_naive.cuh has changed: no '${honest}' to plant the replay before")
endif()
string(REPLACE "${honest}"
  "    if (!isnan(g.c[static_cast<long>(i) * g.ldc + j]))\n      return; // a number is there already: keep it\n${honest}"
  kernel "${kernel}")
file(WRITE ${copy}/step-4/kernels/1_naive.cuh "${kernel}")

execute_process(COMMAND ${ROOT}/tools/grade --build ${COURSE_BUILD} --out ${WORK}/grade
    --exercises naive_product ${copy}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
file(STRINGS ${WORK}/grade/latest/grade.dat rows REGEX "^lab-course naive_product ")
if(NOT rows)
  message(FATAL_ERROR "no row for naive_product (exit code ${code}):\n${out}")
endif()
string(REPLACE " " ";" row "${rows}")
list(GET row 4 status)
list(GET row 6 time)
file(STRINGS ${WORK}/grade/latest/grade.dat gpu_line REGEX "^# gpu: ")
string(REGEX REPLACE "^# gpu: " "" gpu "${gpu_line}")
execute_process(COMMAND ${ROOT}/tools/physical-limit "${gpu}" "flops:2*n^3" 2048
  OUTPUT_VARIABLE least OUTPUT_STRIP_TRAILING_WHITESPACE)
file(READ ${WORK}/grade/latest/lab-course/naive_product.log report)
if(status STREQUAL "PASS" AND (least STREQUAL "unknown" OR time LESS least))
  message(FATAL_ERROR "the replaying kernel passed in ${time} ms (the GPU's peak allows no less than "
    "${least} ms):\n${rows}\n${report}")
endif()
if(NOT status MATCHES "^(PASS|FAIL)$")
  message(FATAL_ERROR "the replaying kernel was not graded: ${rows}\n${out}")
endif()
message(STATUS "the replaying kernel gained nothing: ${rows} (least possible ${least} ms)\n${report}")
