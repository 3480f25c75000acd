# The test docs/offline: the built site must work without the internet, also when
# its html/ folder is copied to another machine.
#
#   cmake -DHTML=<build>/docs/html -P this
#
# - No page loads a script, a stylesheet or an image from another server (http://,
#   https:// or //): without the network it would be missing. Links (<a href>) to
#   other sites are fine.
# - The pages load MathJax, by a path inside html/, and that copy holds what the
#   pages' MathJax configuration asks for (the input and output formats, the
#   extensions, the output's TeX font), as real files: a symbolic link into
#   /usr/share would break on the reader's machine.
if(NOT IS_DIRECTORY "${HTML}" OR NOT EXISTS "${HTML}/index.html")
  message(FATAL_ERROR "no site in ${HTML}: build the docs first (make docs)")
endif()
file(REAL_PATH "${HTML}" site)

# The first 20 failures are shown, and how many there are.
set(failures "")
set(failure_count 0)
function(fail text)
  math(EXPR count "${failure_count} + 1")
  set(failure_count ${count} PARENT_SCOPE)
  if(count LESS_EQUAL 20)
    set(failures "${failures}\n  ${text}" PARENT_SCOPE)
  endif()
endfunction()

set(mathjax_roots "")
set(mathjax_pages 0)
set(configs "")
file(GLOB_RECURSE pages "${site}/*.html")
foreach(page IN LISTS pages)
  file(READ "${page}" html)
  # A ; would split the lists below.
  string(REPLACE ";" "," html "${html}")
  file(RELATIVE_PATH name "${site}" "${page}")
  get_filename_component(dir "${page}" DIRECTORY)

  # What the browser fetches by itself: <script src>, <img src>, and the href of a
  # <link rel="stylesheet">.
  string(REGEX MATCHALL "<[sS][cC][rR][iI][pP][tT][^>]*>" scripts "${html}")
  string(REGEX MATCHALL "<[iI][mM][gG][^>]*>" images "${html}")
  string(REGEX MATCHALL "<[lL][iI][nN][kK][^>]*>" links "${html}")
  set(urls "")
  set(script_urls "")
  foreach(tag IN LISTS scripts images)
    if(tag MATCHES "[ \t\n]src=[\"']([^\"']*)[\"']")
      set(url "${CMAKE_MATCH_1}")
      list(APPEND urls "${url}")
      if(tag MATCHES "^<[sS]")
        list(APPEND script_urls "${url}")
      endif()
    endif()
  endforeach()
  foreach(tag IN LISTS links)
    if(tag MATCHES "rel=[\"'][^\"']*stylesheet" AND
        tag MATCHES "[ \t\n]href=[\"']([^\"']*)[\"']")
      list(APPEND urls "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  foreach(url IN LISTS urls)
    if(url MATCHES "^[ \t]*([hH][tT][tT][pP][sS]?:)?//")
      fail("${name} loads ${url}")
    endif()
  endforeach()

  # The MathJax that the page loads must be a file inside the site.
  foreach(url IN LISTS script_urls)
    if(NOT url MATCHES "(^|/)MathJax\\.js([?#].*)?$")
      continue()
    endif()
    math(EXPR mathjax_pages "${mathjax_pages} + 1")
    string(REGEX REPLACE "[?#].*$" "" path "${url}")
    if(path MATCHES "^[ \t]*([a-zA-Z][a-zA-Z0-9+.-]*:|//)")
      # Another server (reported above) or file:, which is not inside the site.
      if(NOT path MATCHES "^[ \t]*([hH][tT][tT][pP][sS]?:)?//")
        fail("${name} loads MathJax from ${url}, not from inside the site")
      endif()
      continue()
    endif()
    file(REAL_PATH "${path}" file BASE_DIRECTORY "${dir}")
    string(FIND "${file}/" "${site}/" at)
    if(NOT at EQUAL 0)
      fail("${name} loads ${url}, which is outside the site")
    elseif(NOT EXISTS "${file}")
      fail("${name} loads ${url}, and ${file} does not exist")
    else()
      get_filename_component(root "${file}" DIRECTORY)
      list(APPEND mathjax_roots "${root}")
    endif()
  endforeach()

  # The MathJax configuration in the page (Doxygen writes the same one into each).
  string(REGEX MATCH "<script type=\"text/x-mathjax-config\">[^<]*" config "${html}")
  if(config)
    list(APPEND configs "${config}")
  endif()
endforeach()

if(mathjax_pages EQUAL 0)
  fail("no page loads MathJax.js: the formulas are not typeset")
endif()

# Each copy of MathJax holds what the configuration names, as files (MathJax 2's
# layout: jax/<input or output>/config.js, extensions/<name>.js).
list(REMOVE_DUPLICATES mathjax_roots)
list(REMOVE_DUPLICATES configs)
set(needed jax/element/mml/jax.js)
foreach(config IN LISTS configs)
  if(config MATCHES "jax:[ \t\n]*\\[([^]]*)\\]")
    string(REGEX MATCHALL "\"[^\"]*\"" jaxes "${CMAKE_MATCH_1}")
    foreach(jax IN LISTS jaxes)
      string(REPLACE "\"" "" jax "${jax}")
      list(APPEND needed "jax/${jax}/config.js" "jax/${jax}/jax.js")
      # The output's TeX font: SVG's outlines, HTML-CSS's metrics and web fonts.
      if(jax STREQUAL "output/SVG")
        list(APPEND needed jax/output/SVG/fonts/TeX/fontdata.js
          jax/output/SVG/fonts/TeX/Main/Regular/Main.js)
      elseif(jax STREQUAL "output/HTML-CSS")
        list(APPEND needed jax/output/HTML-CSS/fonts/TeX/fontdata.js
          fonts/HTML-CSS/TeX/woff/MathJax_Main-Regular.woff)
      endif()
    endforeach()
  else()
    fail("a MathJax configuration names no jax: ${config}")
  endif()
  string(REGEX MATCHALL "extensions:[ \t\n]*\\[[^]]*\\]" lists "${config}")
  foreach(list IN LISTS lists)
    string(REGEX MATCHALL "\"[^\"]*\"" extensions "${list}")
    foreach(extension IN LISTS extensions)
      string(REGEX REPLACE "\"|\\.js\"" "" extension "${extension}")
      list(APPEND needed "extensions/${extension}.js")
    endforeach()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES needed)
foreach(root IN LISTS mathjax_roots)
  file(RELATIVE_PATH where "${site}" "${root}")
  foreach(file IN LISTS needed)
    if(NOT EXISTS "${root}/${file}")
      fail("${where}/${file} is missing")
    endif()
  endforeach()
  file(GLOB_RECURSE entries LIST_DIRECTORIES true "${root}/*")
  foreach(entry IN LISTS entries)
    if(IS_SYMLINK "${entry}")
      file(RELATIVE_PATH entry_name "${site}" "${entry}")
      fail("${entry_name} is a symbolic link, not a file")
    endif()
  endforeach()
endforeach()

if(failure_count GREATER 0)
  if(failure_count GREATER 20)
    math(EXPR more "${failure_count} - 20")
    string(APPEND failures "\n  ... and ${more} more")
  endif()
  message(FATAL_ERROR "the site in ${site} needs the internet or is incomplete "
    "(${failure_count} problems):${failures}")
endif()
list(LENGTH pages count)
message(STATUS "${count} pages, all offline; ${mathjax_pages} load MathJax from "
  "inside the site")
