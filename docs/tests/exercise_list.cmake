# Shared by the exercise tests: runs `lab_literate exercises` over the steps' LITERATE
# files and leaves its list (one exercise per line) in @p out; a failure of the tool
# fails the test. Expects TOOL, ROOT and SOURCES (a|b|...) as the tests receive them.
macro(lab_read_exercise_list out)
  string(REPLACE "|" ";" SOURCES "${SOURCES}")
  execute_process(COMMAND ${TOOL} exercises ${SOURCES}
    WORKING_DIRECTORY ${ROOT}
    OUTPUT_VARIABLE ${out} ERROR_VARIABLE errors RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "lab_literate exercises failed with exit code ${code}:\n${errors}")
  endif()
endmacro()
