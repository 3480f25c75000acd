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

# Each output against its expected file; the plain copy that the page includes is
# the plain program.
set(failures "")
foreach(pair commented.txt:commented.txt plain.txt:plain.txt step-0.md:step-0.md
    mainpage.md:mainpage.md plain/step-0/step-0.cu:plain.txt)
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
message(STATUS "lab_literate: all outputs as expected")
