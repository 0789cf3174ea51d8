# cmake -DREPORT=DIR -P render_report.cmake
# Opens DIR/index.html in headless Chromium: the page must render (its DOM
# keeps the plots and tables) without console errors, and the screenshot goes
# to DIR/report.png. Skipped when no Chromium is installed.
if(NOT EXISTS ${REPORT}/index.html)
  message("SKIP: no report (no Vulkan device)")
  return()
endif()
find_program(CHROMIUM NAMES chromium chromium-browser google-chrome)
if(NOT CHROMIUM)
  message("SKIP: Chromium is not installed")
  return()
endif()
set(flags --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --enable-logging=stderr
          --user-data-dir=${REPORT}/.chromium-profile)
execute_process(COMMAND ${CHROMIUM} ${flags} --window-size=1400,3000 --screenshot=${REPORT}/report.png
                        file://${REPORT}/index.html
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT EXISTS ${REPORT}/report.png)
  message(FATAL_ERROR "chromium exited ${rc} without a screenshot:\n${err}")
endif()
execute_process(COMMAND ${CHROMIUM} ${flags} --dump-dom file://${REPORT}/index.html
                RESULT_VARIABLE rc OUTPUT_VARIABLE dom ERROR_VARIABLE dom_err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "chromium --dump-dom exited ${rc}:\n${dom_err}")
endif()
foreach(log "${err}" "${dom_err}")
  if(log MATCHES "CONSOLE[^\n]*(Uncaught|Error)|Failed to load|ERR_FILE_NOT_FOUND")
    message(FATAL_ERROR "the page logged an error:\n${log}")
  endif()
endforeach()
string(REGEX MATCHALL "<svg" svgs "${dom}")
list(LENGTH svgs svg_count)
if(svg_count LESS 3 OR NOT dom MATCHES "id=\"correctness\"")
  message(FATAL_ERROR "the rendered page has ${svg_count} plots and no correctness summary")
endif()
file(REMOVE_RECURSE ${REPORT}/.chromium-profile)
message("rendered: ${svg_count} plots, screenshot ${REPORT}/report.png")
