# Included by the report tests (-P scripts given -DLANELAB=...): writes a
# report and checks its page, failing the test with what lanelab printed.

# Writes `lanelab report FILES... --out DIR` and reads DIR/index.html into HTML_VAR.
function(write_report dir html_var)
  file(REMOVE_RECURSE ${dir})
  execute_process(COMMAND ${LANELAB} report ${ARGN} --out ${dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lanelab report exited ${rc}:\n${out}${err}")
  endif()
  file(READ ${dir}/index.html html)
  set(${html_var} "${html}" PARENT_SCOPE)
endfunction()

# Fails unless the page HTML (of DIR) holds every further argument.
function(require_in_page html dir)
  foreach(expected IN LISTS ARGN)
    string(FIND "${html}" "${expected}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${dir}/index.html lacks '${expected}'")
    endif()
  endforeach()
endfunction()
