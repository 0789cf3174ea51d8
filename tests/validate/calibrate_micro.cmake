# cmake -DLANELAB=... -DWORK_DIR=DIR -P calibrate_micro.cmake
# The micro sweep at its small size on the first Vulkan device, then
# `lanelab calibrate` of lavapipe's model on its results; the calibrated file
# must load (calibrate checks that) and say which fields it measured.
# Exit code 2 of lanelab validate (no Vulkan device or driver) is a skip.
file(MAKE_DIRECTORY ${WORK_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/validate_or_skip.cmake)
lanelab_validate(--sweep micro --size small --repeats 3 --warmup 1 --out ${WORK_DIR}/micro.jsonl)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lanelab validate --sweep micro exited ${rc}:\n${out}\n${err}")
endif()
execute_process(
  COMMAND ${LANELAB} calibrate ${WORK_DIR}/micro.jsonl --device lavapipe --out ${WORK_DIR}/lavapipe-test.json
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lanelab calibrate exited ${rc}:\n${err}")
endif()
file(READ ${WORK_DIR}/lavapipe-test.json calibrated)
foreach(field latency_cycles.int latency_cycles.global dispatch_overhead_us)
  string(JSON status GET "${calibrated}" calibration fields ${field} status)
  if(NOT status MATCHES "^(measured|fitted)$")
    message(FATAL_ERROR "${field} is '${status}' in the calibrated file, expected measured or fitted")
  endif()
endforeach()
# A documented peak measured below half its value is kept and marked
# rejected: lavapipe's bandwidth on a machine busy with other tests can fall
# that low. Either way the measurement was taken and weighed.
string(JSON status GET "${calibrated}" calibration fields dram_bandwidth_gbps status)
if(NOT status MATCHES "^(measured|rejected)$")
  message(FATAL_ERROR "dram_bandwidth_gbps is '${status}' in the calibrated file, expected measured or rejected")
endif()
