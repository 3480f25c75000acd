# lab_add_exercise: how the course gives feedback on one exercise (make exercise
# NAME=..., tools/exercise) and grades it (make grade STUDENT=..., tools/grade).
#
#   lab_add_exercise(naive_product                  the name in its @exercise marker
#     ARGS   --sizes 2048 --precision float --kernel 1   a short run of the step's program
#     TABLE  time_float.dat                          the table that run writes
#     TIME   1_naive                                 the column of the exercise's code
#     VENDOR cublas                                  the vendor's column, or none
#     PERCENT percent_of_cublas.dat:1_naive          optional: where the run wrote the
#                                                    code's percentage of the vendor's
#                                                    speed, timed alternately with it
#     SECTION 1_naive                                optional: only this section of the
#                                                    tagged test cases (Catch2's -c)
#     FLOPS "2*n^3")                                 optional: the least work the timed code
#                                                    must do at size n (the first of
#                                                    --sizes), flops or, as BYTES, bytes
#                                                    it must move: a time below what the
#                                                    GPU's peak allows for it is refused
#                                                    as impossible (tools/physical-limit)
#     KERNEL naive_kernel                            optional: a regular expression for
#                                                    the exercise's kernel, which
#                                                    `make exercise PROFILE=1` profiles
#
# Called in a step's CMakeLists after lab_add_step. An exercise is checked by the
# step's Catch2 test cases tagged with its name ("[naive_product]": they cover the
# code the exercise blanks) and by the short run itself, whose own checks must pass;
# an exercise in the step's program (step-1/step-1.cu) has only the run. Where a
# tagged test case checks several exercises' code, each in a section named after it
# (step-4's kernels), SECTION picks the exercise's own. Its time is
# the run's median in TIME, beside the vendor's in VENDOR from the same run; its share
# of the vendor's speed is PERCENT's where the step measures it (lab/timer.h: timed
# alternately, both see the same clock), else the ratio of the two times.
#
# The lines go into exercises/timings.txt in the build folder, one per exercise:
#   name <TAB> step <TAB> table <TAB> time column <TAB> vendor column <TAB> section
#   (or -) <TAB> percent table:column (or -) <TAB> flops:EXPR, bytes:EXPR (or -)
#   <TAB> kernel (or -) <TAB> arguments
# (the arguments separated by blanks). The test docs/exercise-registry checks that every
# marked exercise has exactly one line and its tagged tests, and no line is left over.
function(lab_add_exercise name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TABLE;TIME;VENDOR;SECTION;PERCENT;FLOPS;BYTES;KERNEL" "ARGS")
  foreach(required TABLE TIME VENDOR ARGS)
    if(NOT arg_${required})
      message(FATAL_ERROR "lab_add_exercise(${name}): ${required} is missing")
    endif()
  endforeach()
  get_filename_component(step ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  list(JOIN arg_ARGS " " arguments)
  if(NOT arg_SECTION)
    set(arg_SECTION "-")
  endif()
  if(NOT arg_PERCENT)
    set(arg_PERCENT "-")
  elseif(NOT arg_PERCENT MATCHES "^[^:]+\\.dat:[^:]+$")
    message(FATAL_ERROR "lab_add_exercise(${name}): PERCENT is TABLE.dat:COLUMN, not '${arg_PERCENT}'")
  endif()
  set(kernel "-")
  if(arg_KERNEL)
    set(kernel "${arg_KERNEL}")
  endif()
  set(work "-")
  if(arg_FLOPS)
    set(work "flops:${arg_FLOPS}")
  elseif(arg_BYTES)
    set(work "bytes:${arg_BYTES}")
  endif()
  set_property(GLOBAL APPEND PROPERTY LAB_EXERCISE_TIMINGS
    "${name}\t${step}\t${arg_TABLE}\t${arg_TIME}\t${arg_VENDOR}\t${arg_SECTION}\t${arg_PERCENT}\t${work}\t${kernel}\t${arguments}")
endfunction()

# Writes exercises/timings.txt (above) once every step has added its exercises.
function(lab_write_exercise_timings)
  get_property(lines GLOBAL PROPERTY LAB_EXERCISE_TIMINGS)
  list(JOIN lines "\n" text)
  file(WRITE ${CMAKE_BINARY_DIR}/exercises/timings.txt "${text}\n")
endfunction()
