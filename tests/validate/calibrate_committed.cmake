# cmake -DLANELAB=... -DSOURCE_DIR=... -DWORK_DIR=DIR -P calibrate_committed.cmake
# sim/devices/h100-calibrated.json and lavapipe-calibrated.json are what
# `lanelab calibrate` makes of the committed measurements: made again here,
# each must come out the same, byte for byte (a change to the fit, to the
# timing model the barrier fit runs, or to the base model shows as a stale file).
file(MAKE_DIRECTORY ${WORK_DIR})
set(data ${SOURCE_DIR}/validate/data)
function(calibrate_again device)
  execute_process(
    COMMAND ${LANELAB} calibrate ${ARGN} --device ${device} --out ${WORK_DIR}/${device}-calibrated.json
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lanelab calibrate exited ${rc}:\n${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/${device}-calibrated.json
                          ${SOURCE_DIR}/sim/devices/${device}-calibrated.json RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "${WORK_DIR}/${device}-calibrated.json differs from sim/devices/${device}-calibrated.json: "
                        "calibrate again and commit the file")
  endif()
endfunction()
calibrate_again(h100 ${data}/h100-micro-2026-11-23.jsonl ${data}/h100-launch-and-select-2026-11-23.jsonl
                ${data}/h100-l2-capacity-2026-11-24.jsonl ${data}/h100-barrier-throughput-all-sizes-2026-11-27.jsonl
                ${data}/h100-dispatch-push-2026-11-26.jsonl ${data}/h100-l2-bandwidth-2026-11-26.jsonl
                ${data}/h100-dispatch-push-read-2026-11-27.jsonl ${data}/h100-alu-remainder-2026-11-28.jsonl
                ${data}/h100-uniform-read-2026-11-28.jsonl)
calibrate_again(lavapipe ${data}/lavapipe-micro-2026-11-23.jsonl ${data}/lavapipe-micro-2026-11-28.jsonl)
