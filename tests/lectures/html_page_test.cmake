# lanelab step --html in headless Chromium: the page loads, steps forward twice
# and back once with the arrow keys (#selftest), and renders a screenshot.
# Skips (exit 77) when Chromium is not installed.
find_program(CHROMIUM NAMES chromium chromium-browser google-chrome)
if(NOT CHROMIUM)
  message("chromium not installed: skipping")
  cmake_language(EXIT 77)
endif()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/profile)
execute_process(COMMAND ${LANELAB} step ${SOURCE_DIR}/examples/simd_add_square.amber --device teach-simd4
                        --watch a,b --html ${WORK_DIR}/step.html
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lanelab step --html failed (${rc})")
endif()
set(flags --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
          --disable-component-update --disable-sync --user-data-dir=${WORK_DIR}/profile)
execute_process(COMMAND ${CHROMIUM} ${flags} --dump-dom "file://${WORK_DIR}/step.html#selftest"
                OUTPUT_VARIABLE dom ERROR_QUIET TIMEOUT 60)
if(NOT dom MATCHES "selftest position 1 cycle 1 mask 1111")
  message(FATAL_ERROR "the page did not step to cycle 1 and back:\n${dom}")
endif()
execute_process(COMMAND ${CHROMIUM} ${flags} --screenshot=${WORK_DIR}/step.png --window-size=1000,700
                        file://${WORK_DIR}/step.html
                ERROR_QUIET OUTPUT_QUIET TIMEOUT 60)
if(NOT EXISTS ${WORK_DIR}/step.png)
  message(FATAL_ERROR "no screenshot written")
endif()
file(SIZE ${WORK_DIR}/step.png size)
message("screenshot ${WORK_DIR}/step.png: ${size} bytes")
