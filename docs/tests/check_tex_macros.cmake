# The test docs/tex-macros: every TeX macro in the site's formulas is one that the
# MathJax the pages load defines. MathJax shows a formula with an unknown macro as a
# red box holding the macro's name, in the reader's browser, long after the build
# passed: \gtrsim and \tfrac did so until the AMS extensions were loaded.
#
#   cmake -DHTML=<build>/docs/html -P this
#
# What MathJax defines is read from the site's own copy of it: the names in the
# definition tables of its TeX input (jax/input/TeX/jax.js) and of each extension the
# pages' configuration loads (extensions/TeX/AMSmath.js, ...), where each macro is a
# key, `tfrac:["Frac","","","1",...]`, or a quoted one with its backslash for the
# delimiters, `"\\lceil":"2308"`. Every identifier before a colon in those files
# counts, which takes in some names that are not macros (`version`, say) and so errs
# on the side of passing; a macro that no loaded file names at all cannot pass.
# The formulas are what Doxygen writes for \f$...\f$ and \f[...\f]: \(...\) and
# \[...\] in the pages; only macros made of letters are checked (\, and \{ are
# MathJax's own).
cmake_policy(VERSION 3.24)
if(NOT EXISTS "${HTML}/index.html")
  message(FATAL_ERROR "no site in ${HTML}: build the docs first (make docs)")
endif()
set(mathjax "${HTML}/mathjax")

# The extensions the pages load: "TeX/AMSmath.js" in the configuration's
# extensions: [...] lists (Doxygen writes the same configuration into each page).
file(READ "${HTML}/index.html" index)
string(REGEX MATCH "<script type=\"text/x-mathjax-config\">[^<]*" config "${index}")
if(NOT config)
  message(FATAL_ERROR "index.html has no MathJax configuration")
endif()
set(definitions "${mathjax}/jax/input/TeX/jax.js")
string(REGEX MATCHALL "extensions:[ \t\n]*\\[[^]]*\\]" lists "${config}")
foreach(list IN LISTS lists)
  string(REGEX MATCHALL "\"[^\"]*\\.js\"" names "${list}")
  foreach(name IN LISTS names)
    string(REPLACE "\"" "" name "${name}")
    list(APPEND definitions "${mathjax}/extensions/${name}")
  endforeach()
endforeach()

set(defined "")
foreach(file IN LISTS definitions)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "the pages load ${file}, which is not in the site")
  endif()
  file(READ "${file}" script)
  string(REGEX MATCHALL "[{,]\"?(\\\\\\\\)?[A-Za-z]+\"?:" keys "${script}")
  foreach(key IN LISTS keys)
    string(REGEX REPLACE "[{,\":\\]" "" key "${key}")
    list(APPEND defined "${key}")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES defined)

# The formulas of every page. CMake's regular expressions have no lazy *?, so the
# page is cut into a list at every \( and \[ (after its own ; and brackets, which
# a list would take for its own, are replaced), and each piece is read up to the
# first \) or \].
set(unknown "")
set(formulas 0)
file(GLOB pages "${HTML}/*.html")
foreach(page IN LISTS pages)
  file(READ "${page}" html)
  get_filename_component(name "${page}" NAME)
  string(REPLACE ";" "," html "${html}")
  foreach(delimiter "\\(" "\\[")
    string(REPLACE "${delimiter}" "<open>" html "${html}")
  endforeach()
  foreach(delimiter "\\)" "\\]")
    string(REPLACE "${delimiter}" "<close>" html "${html}")
  endforeach()
  string(REPLACE "[" "(" html "${html}")
  string(REPLACE "]" ")" html "${html}")
  string(REPLACE "<open>" ";" pieces "${html}")
  list(POP_FRONT pieces)
  foreach(piece IN LISTS pieces)
    string(FIND "${piece}" "<close>" end)
    if(end LESS 0)
      continue()
    endif()
    string(SUBSTRING "${piece}" 0 ${end} formula)
    math(EXPR formulas "${formulas} + 1")
    string(REGEX MATCHALL "\\\\[A-Za-z]+" macros "${formula}")
    foreach(macro IN LISTS macros)
      string(SUBSTRING "${macro}" 1 -1 bare)
      if(NOT bare IN_LIST defined)
        list(APPEND unknown "${macro} (${name})")
      endif()
    endforeach()
  endforeach()
endforeach()

if(formulas EQUAL 0)
  message(FATAL_ERROR "no formula found in ${HTML}: the test would pass on anything")
endif()
if(unknown)
  list(REMOVE_DUPLICATES unknown)
  list(JOIN unknown "\n  " text)
  message(FATAL_ERROR "macros that the loaded MathJax does not define (a red box on the page):\n  ${text}")
endif()
list(LENGTH defined count)
message(STATUS "${formulas} formulas, every macro among the ${count} names MathJax defines")
