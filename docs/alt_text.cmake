# Gives every figure of the step pages its caption as alt text, for a reader who does
# not see it (a screen reader, a text browser, an image that did not load). Doxygen
# 1.9's @image writes alt="" whatever the caption; this runs after it, over the pages
# it wrote, and fails the build where a figure of a step page has no caption to say:
# every plot of the course is explained in words. It also fails where a code span
# shows a typographic quote (Doxygen 1.9.4 turns the closing ' of `f(x, 'a')` into
# &rsquo;): a command copied from the page would be wrong. Write such a string in
# double quotes, or the command in a @code block.
#
#   cmake -DHTML=<the site's html folder> -P this
file(GLOB pages ${HTML}/step_*.html)
set(missing "")
foreach(page IN LISTS pages)
  file(READ ${page} html)
  set(changed 0)
  # An image and the caption Doxygen writes right after it.
  set(pattern "<img src=\"([^\"]+)\" alt=\"\"([^>]*)/>\n<div class=\"caption\">\n([^<]*)</div>")
  while(html MATCHES "${pattern}")
    set(whole "${CMAKE_MATCH_0}")
    set(source "${CMAKE_MATCH_1}")
    set(rest "${CMAKE_MATCH_2}")
    set(caption "${CMAKE_MATCH_3}")
    string(STRIP "${caption}" alt)
    string(REPLACE "\"" "&quot;" alt "${alt}")
    string(REPLACE "${whole}" "<img src=\"${source}\" alt=\"${alt}\"${rest}/>\n<div class=\"caption\">\n${caption}</div>" html "${html}")
    set(changed 1)
  endwhile()
  if(changed)
    file(WRITE ${page} "${html}")
  endif()
  # In a code span, or where it broke the span (its closing backtick then shows).
  string(REGEX MATCHALL "<code>[^<]*&rsquo;[^<]*</code>|'[^'<`]*&rsquo;[^<`]*`" quoted "${html}")
  foreach(code IN LISTS quoted)
    get_filename_component(name ${page} NAME)
    string(APPEND missing "\n  ${name}: a typographic quote in ${code}")
  endforeach()
  string(REGEX MATCHALL "<img src=\"[^\"]+\" alt=\"\"" bare "${html}")
  foreach(image IN LISTS bare)
    get_filename_component(name ${page} NAME)
    string(APPEND missing "\n  ${name}: ${image}")
  endforeach()
endforeach()
if(missing)
  message(FATAL_ERROR "figures without a caption (write one after the file name of @image), or code with a typographic quote:${missing}")
endif()
