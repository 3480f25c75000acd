# The test docs/results-length: each step's Results is a page a reader can take in,
# at most LIMIT words (the course keeps it to about 3,000: what the step achieved, the
# plots and what to see in them, the lessons); the record of how it got there belongs
# in the step's lab notebook (doc/notebook.dox), which has no limit.
#
#   cmake -DFILES=<results.dox|...> -DLIMIT=<words> -P this
string(REPLACE "|" ";" FILES "${FILES}")
set(problems "")
foreach(file IN LISTS FILES)
  file(READ ${file} text)
  string(REGEX REPLACE "[ \t\r\n]+" ";" words "${text}")
  list(FILTER words EXCLUDE REGEX "^$")
  list(LENGTH words count)
  if(count GREATER LIMIT)
    string(APPEND problems "\n  ${file}: ${count} words")
  else()
    message(STATUS "${file}: ${count} words")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "Results longer than ${LIMIT} words (move the record to doc/notebook.dox):${problems}")
endif()
