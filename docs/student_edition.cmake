# The student edition's copy of the tree and its tarball (`make student`, the target
# student of docs/CMakeLists.txt). lab_literate student has already written the
# changed files (the exercises' stubs, the list of blanked names) into STAGE; here the
# course's source tree is copied into DEST/lab-course, those files are laid over it,
# and DEST/lab-course-student.tar.gz is packed.
#
#   cmake -DROOT=<source tree> -DSTAGE=<changed files> -DDEST=<folder> -P this
#
# The tree is the course's files (tools/course-files: what git tracks, plus new files
# it does not ignore; without git, every file but the build folders, .deps, .git and
# results/local).
execute_process(COMMAND ${ROOT}/tools/course-files ${ROOT}
  OUTPUT_VARIABLE files RESULT_VARIABLE code)
if(NOT code EQUAL 0 OR files STREQUAL "")
  message(FATAL_ERROR "tools/course-files found no files in ${ROOT}")
endif()
string(REPLACE "\n" ";" files "${files}")

set(copy ${DEST}/lab-course)
file(REMOVE_RECURSE ${copy} ${DEST}/lab-course-student.tar.gz)
set(count 0)
foreach(file IN LISTS files)
  # A file git still tracks but that was deleted from the work tree is left out.
  if(file STREQUAL "" OR NOT EXISTS ${ROOT}/${file} OR IS_DIRECTORY ${ROOT}/${file})
    continue()
  endif()
  get_filename_component(folder ${file} DIRECTORY)
  file(COPY ${ROOT}/${file} DESTINATION ${copy}/${folder})
  math(EXPR count "${count} + 1")
endforeach()
file(COPY ${STAGE}/ DESTINATION ${copy})

execute_process(COMMAND ${CMAKE_COMMAND} -E tar czf lab-course-student.tar.gz lab-course
  WORKING_DIRECTORY ${DEST} RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "cannot write ${DEST}/lab-course-student.tar.gz")
endif()
message(STATUS "student edition (${count} files): ${copy}, "
  "${DEST}/lab-course-student.tar.gz")
