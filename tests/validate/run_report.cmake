# cmake -DLANELAB=... -DRESULTS="a.jsonl|b.jsonl" -DREPORT=DIR -P run_report.cmake
# Writes the report of every results file the sweeps wrote (a sweep skipped
# for want of a Vulkan device wrote none: then this is skipped too).
include(${CMAKE_CURRENT_LIST_DIR}/report_page.cmake)
string(REPLACE "|" ";" files "${RESULTS}")
set(present "")
foreach(f IN LISTS files)
  if(EXISTS ${f})
    list(APPEND present ${f})
  endif()
endforeach()
if(NOT present)
  message("SKIP: no results (no Vulkan device)")
  return()
endif()
write_report(${REPORT} html ${present})
require_in_page("${html}" ${REPORT} "id=\"correctness\"" "<svg" "id=\"transpose-workgroup\"" "id=\"apsp\"")
