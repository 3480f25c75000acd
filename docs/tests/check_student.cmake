# The test docs/student-edition: the student edition, built from this tree, must
# compile, and the tests of its exercises must fail there, saying which exercise is
# not done; in the course edition the same tests pass (they are step-1/cpu and the
# others of the ordinary ctest). So the markers can never drift from the code. Then a
# class of three copies made from it is graded (below).
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

# Grading a class of three on the course's ground (tools/grade, as `make grade
# STUDENTS=...` does), step-1's two exercises that do not need the step's program
# alone, each copy in a folder of its own and all three unpacked as lab-course:
#   solved  the edition with the course's code in every exercise: cholesky_loop PASS;
#   blank   the student edition as handed out: cholesky_loop FAIL, "not done";
#   cheat   the edition with cholesky_loop's code wrong (the diagonal set to 1), its
#           test edited to assert nothing, lab::Checks edited to pass everything and
#           the timer to return 0: graded by the course's test, checks and timer, so
#           cholesky_loop FAILs as a wrong result, with the check's values, and the
#           three files are listed as ignored.
# single_thread_launch must PASS for the solved copy with a GPU and never for the
# others; without a GPU it is SKIPPED for all three. One table for the class, in a
# dated folder, and (with gnuplot) a plot that names every row.
set(class ${WORK}/class)
file(REMOVE_RECURSE ${class})
foreach(student solved blank cheat)
  file(MAKE_DIRECTORY ${class}/${student})
  file(COPY ${WORK}/lab-course DESTINATION ${class}/${student})
endforeach()
foreach(source IN LISTS SOURCES)
  get_filename_component(folder ${source} DIRECTORY)
  file(COPY ${ROOT}/${source} DESTINATION ${class}/solved/lab-course/${folder})
endforeach()
file(COPY ${ROOT}/common/src/exercises.cpp DESTINATION ${class}/solved/lab-course/common/src)
function(edit file from to)
  file(READ ${file} text)
  string(FIND "${text}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the cheating copy: no '${from}' in ${file} (has the course changed?)")
  endif()
  string(REPLACE "${from}" "${to}" text "${text}")
  file(WRITE ${file} "${text}")
endfunction()
set(cheat ${class}/cheat/lab-course)
edit(${cheat}/step-1/cholesky_loop.h "static_cast<void>(\"exercise cholesky_loop not done\");"
  "for (int i = 0; i < n; ++i) a[static_cast<long>(i) * ld + i] = T(1);")
file(WRITE ${cheat}/step-1/tests/cholesky_cpu_test.cpp
  "#include <lab_catch.h>\nTEST_CASE(\"the loop\", \"[cholesky_loop]\") { CHECK(true); }\n")
edit(${cheat}/common/src/checks.cpp "if (value <= tolerance)" "if (true)")
edit(${cheat}/common/include/lab/timer.h "double milliseconds() const { return milliseconds_between(start_, stop_); }"
  "double milliseconds() const { return 0; }")

execute_process(COMMAND ${GRADE} --build ${COURSE_BUILD} --out ${WORK}/grade
    --exercises cholesky_loop,single_thread_launch
    ${class}/solved/lab-course ${class}/blank/lab-course ${class}/cheat/lab-course
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT code EQUAL 1)
  message(FATAL_ERROR "tools/grade on the class: exit code ${code}, not 1:\n${out}")
endif()
file(GLOB runs LIST_DIRECTORIES true ${WORK}/grade/20*)
list(LENGTH runs count)
if(NOT count EQUAL 1 OR NOT EXISTS ${WORK}/grade/latest/grade.dat)
  message(FATAL_ERROR "tools/grade wrote ${count} dated folders, not 1, or no latest/grade.dat:\n${out}")
endif()
file(READ ${WORK}/grade/latest/grade.dat table)
file(READ ${WORK}/grade/latest/blank/cholesky_loop.log blank_report)
file(READ ${WORK}/grade/latest/cheat/cholesky_loop.log cheat_report)
file(READ ${WORK}/grade/latest/cheat/ignored.txt ignored)
set(problems "")
foreach(expected
    "\nsolved cholesky_loop step-1 2 PASS course [0-9]"
    "\nblank cholesky_loop step-1 2 FAIL stub "
    "\ncheat cholesky_loop step-1 2 FAIL written "
    "\nsolved single_thread_launch step-1 1 (PASS|SKIPPED) course "
    "\nblank single_thread_launch step-1 1 (FAIL|SKIPPED) stub "
    "\ncheat single_thread_launch step-1 1 (FAIL|SKIPPED) stub ")
  if(NOT table MATCHES "${expected}")
    string(APPEND problems "\n  no row matching '${expected}'")
  endif()
endforeach()
if(NOT blank_report MATCHES "FAIL \\(not done: its code is still the stub\\)")
  string(APPEND problems "\n  the blank copy's report does not say 'not done'")
endif()
if(cheat_report MATCHES "not done" OR NOT cheat_report MATCHES "a wrong result" OR
   NOT cheat_report MATCHES "with expansion")
  string(APPEND problems "\n  the cheating copy's report does not show a wrong result with the check's values")
endif()
foreach(file step-1/tests/cholesky_cpu_test.cpp common/src/checks.cpp common/include/lab/timer.h)
  if(NOT ignored MATCHES "${file}\t")
    string(APPEND problems "\n  ${file} is not listed as ignored")
  endif()
endforeach()
if(EXISTS ${WORK}/grade/latest/grade.svg)
  file(READ ${WORK}/grade/latest/grade.svg plot)
  foreach(row "solved: cholesky_loop \\(PASS\\)" "blank: cholesky_loop \\(FAIL\\)"
      "cheat: cholesky_loop \\(FAIL\\)" "blank: single_thread_launch \\((FAIL|SKIPPED)\\)")
    if(NOT plot MATCHES "${row}")
      string(APPEND problems "\n  the plot has no label '${row}'")
    endif()
  endforeach()
endif()
if(problems)
  message(FATAL_ERROR "tools/grade on the class:${problems}\n${out}\n${table}\n${blank_report}\n${cheat_report}")
endif()
message(STATUS "tools/grade: the class of three graded on the course's ground:\n${table}")
