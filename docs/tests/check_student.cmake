# The test docs/student-edition: the student edition, built from this tree, must
# compile, and the tests of its exercises must fail there, saying which exercise is
# not done; in the course edition the same tests pass (they are step-1/cpu and the
# others of the ordinary ctest). So the markers can never drift from the code.
#
#   cmake -DTOOL=<lab_literate> -DROOT=<source tree> -DSOURCES=<a|b|...> -DWORK=<folder>
#         -DCONFIGURE=<cmake options, |-separated> -DTARGETS=<a|b>
#         -DTESTS=<program:exercise|...> -DGRADE=<tools/grade>
#         -DCOURSE_BUILD=<this build folder> -P this
#
# It writes the whole edition (every exercise blanked) as `make student` does, into
# WORK/lab-course and WORK/lab-course-student.tar.gz, configures it into WORK/build
# with the options of this build, builds TARGETS there (the targets that compile the
# exercise regions, not the whole course, to stay short on a CPU-only machine), and runs each TESTS program (a path in WORK/build):
# it must fail and print "exercise <exercise> not done". GPU test programs skip
# without a GPU, so only CPU-checkable exercises are listed.
foreach(list SOURCES CONFIGURE TARGETS TESTS)
  string(REPLACE "|" ";" ${list} "${${list}}")
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit code ${code}):\n${out}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
run("lab_literate student" ${CMAKE_COMMAND} -E env --unset=LAB_EXERCISES
  ${TOOL} student ${ROOT} ${WORK}/stage - ${SOURCES}
  WORKING_DIRECTORY ${ROOT})
run("the copy of the tree" ${CMAKE_COMMAND} -DROOT=${ROOT} -DSTAGE=${WORK}/stage
  -DDEST=${WORK} -P ${ROOT}/docs/student_edition.cmake)
if(NOT EXISTS ${WORK}/lab-course-student.tar.gz)
  message(FATAL_ERROR "no tarball ${WORK}/lab-course-student.tar.gz")
endif()

string(TIMESTAMP start "%s")
run("configuring the student edition" ${CMAKE_COMMAND} -S ${WORK}/lab-course
  -B ${WORK}/build ${CONFIGURE})
run("building the student edition (${TARGETS})" ${CMAKE_COMMAND} --build ${WORK}/build
  --target ${TARGETS})
string(TIMESTAMP built "%s")
math(EXPR seconds "${built} - ${start}")
message(STATUS "student edition configured and built (${TARGETS}) in ${seconds} s")

foreach(test IN LISTS TESTS)
  string(REPLACE ":" ";" test "${test}")
  list(GET test 0 program)
  list(GET test 1 exercise)
  execute_process(COMMAND ${WORK}/build/${program} RESULT_VARIABLE code
    OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(code EQUAL 0)
    message(FATAL_ERROR "${program} passed in the student edition, where exercise "
      "${exercise} is blanked: its tests do not test it\n${out}")
  endif()
  if(NOT out MATCHES "exercise ${exercise} not done")
    message(FATAL_ERROR "${program} failed without saying 'exercise ${exercise} not "
      "done':\n${out}")
  endif()
  message(STATUS "${program}: fails, with 'exercise ${exercise} not done'")
endforeach()

# Grading the edition (tools/grade, as `make grade STUDENT=...` does), step-1's two
# exercises that do not need the step's program alone: cholesky_loop must FAIL, and
# say why in its report, with the course's solution timed beside it; the blanked
# single_thread_launch must FAIL (GPU) or be SKIPPED (no GPU), never PASS.
execute_process(COMMAND ${GRADE} --build ${COURSE_BUILD} --student-build ${WORK}/build
    --out ${WORK}/grade --exercises cholesky_loop,single_thread_launch ${WORK}/lab-course
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT code EQUAL 1)
  message(FATAL_ERROR "tools/grade on the student edition: exit code ${code}, not 1:\n${out}")
endif()
file(READ ${WORK}/grade/grade.dat table)
file(READ ${WORK}/grade/logs/cholesky_loop.log report)
if(NOT table MATCHES "\ncholesky_loop step-1 2 FAIL [^ ]+ [0-9][^ ]* "
   OR NOT table MATCHES "\nsingle_thread_launch step-1 1 (FAIL|SKIPPED) "
   OR NOT report MATCHES "exercise cholesky_loop not done")
  message(FATAL_ERROR "tools/grade's table or report is wrong:\n${table}\n${report}")
endif()
message(STATUS "tools/grade: cholesky_loop FAIL (not done), single_thread_launch not passed:\n${table}")
