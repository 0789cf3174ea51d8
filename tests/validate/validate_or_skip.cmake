# include(validate_or_skip.cmake) in a -P script, then
# lanelab_validate(ARGS...): runs `${LANELAB} validate ARGS...`, prints what it
# printed, and leaves rc, out and err set. Exit code 2 (no Vulkan device or
# driver) ends the calling script as a skip: a macro's return() returns from
# the script that expanded it.
macro(lanelab_validate)
  execute_process(COMMAND ${LANELAB} validate ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}")
  if(rc EQUAL 2)
    message("SKIP: no Vulkan device: ${err}")
    return()
  endif()
endmacro()
