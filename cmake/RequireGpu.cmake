# Run PROGRAM with ARGUMENTS ('|'-separated) twice, without and with LAB_REQUIRE_GPU=1,
# and check that the variable turns a skip into a failure. Used by lab_expect_required.
#   -DPROGRAM=...  -DARGUMENTS=...  -DSKIPPED_BY=<how the plain run says it skipped>
#   -DFAILED_BY=<regex the run under LAB_REQUIRE_GPU=1 must print when it fails>
# Where the plain run did not skip (a GPU machine running a GPU test), the run under
# LAB_REQUIRE_GPU=1 must pass just the same: the variable may never break a good run.
string(REPLACE "|" ";" arguments "${ARGUMENTS}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=LAB_REQUIRE_GPU ${PROGRAM} ${arguments}
  RESULT_VARIABLE plain OUTPUT_VARIABLE plain_out ERROR_VARIABLE plain_err)
execute_process(COMMAND ${CMAKE_COMMAND} -E env LAB_REQUIRE_GPU=1 ${PROGRAM} ${arguments}
  RESULT_VARIABLE required OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(plain_all "${plain_out}${plain_err}")
set(all "${out}${err}")
if(NOT plain_all MATCHES "${SKIPPED_BY}")
  if(NOT plain EQUAL 0)
    message(FATAL_ERROR "the run without LAB_REQUIRE_GPU neither skipped nor passed (exit code ${plain}):\n${plain_all}")
  endif()
  if(NOT required EQUAL 0)
    message(FATAL_ERROR "nothing was skipped, yet LAB_REQUIRE_GPU=1 broke the run (exit code ${required}):\n${all}")
  endif()
  message(STATUS "nothing to skip here; LAB_REQUIRE_GPU=1 passes as well")
  return()
endif()
if(required EQUAL 0 OR required EQUAL 77)
  message(FATAL_ERROR "skipped, and LAB_REQUIRE_GPU=1 let it pass as exit code ${required}:\n${all}")
endif()
if(NOT all MATCHES "${FAILED_BY}")
  message(FATAL_ERROR "LAB_REQUIRE_GPU=1 failed the run, but without saying '${FAILED_BY}':\n${all}")
endif()
message(STATUS "skipped without LAB_REQUIRE_GPU, failed with it (exit code ${required}): ${all}")
