# cmake -DLANELAB=... -DRESULTS="measured.jsonl|predicted.jsonl" -DREPORT=DIR -P check_comparison.cmake
# Writes the report of measurements and predictions and checks its
# comparison: the section, the calibration note, a MAPE figure per experiment.
find_program(GNUPLOT gnuplot)
if(NOT GNUPLOT)
  message("SKIP: gnuplot is not installed")
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/report_page.cmake)
string(REPLACE "|" ";" files "${RESULTS}")
write_report(${REPORT} html ${files})
require_in_page("${html}" ${REPORT} "Predicted vs measured" "left out of every figure here"
                "predicted against measured time")
# Measurements given in several runs are pooled, and the report says so.
list(LENGTH files file_count)
if(file_count GREATER 2)
  require_in_page("${html}" ${REPORT} "measured in several runs" "pairs the runs order both ways"
                  "faster on the device")
  # APSP's phases, each taken as measured in turn, and each point's phases.
  require_in_page("${html}" ${REPORT} "taken as measured" "none (the model)" "phase2: a dispatch, measured / predicted"
                  "between dispatches, a gap" "with every pipeline as measured" "one variant's pipeline")
endif()
# The summary row of every experiment: its name, its pair count, its MAPE.
foreach(experiment transpose-workgroup transpose-loading reduce-image reduce-array apsp)
  if(NOT html MATCHES "#${experiment}\">${experiment}</a></td><td>[0-9]+</td><td>[0-9]+\\.[0-9]%</td>")
    message(FATAL_ERROR "${REPORT}/index.html has no MAPE for ${experiment}")
  endif()
endforeach()
if(NOT html MATCHES "<tr><th>all</th><th>[0-9]+</th><th>([0-9]+\\.[0-9])%</th>")
  message(FATAL_ERROR "${REPORT}/index.html has no overall MAPE")
endif()
message("overall MAPE ${CMAKE_MATCH_1}%")
