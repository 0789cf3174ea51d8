# Validation on the machine's Vulkan device (lavapipe in CI): every sweep at
# its small size with the simulator compared at the device's subgroup size,
# then the report of all of them, then that report rendered in headless
# Chromium (screenshot in the output folder). Without a Vulkan device or
# without Chromium the tests report themselves skipped.
set(LANELAB_VALIDATE_OUT ${CMAKE_BINARY_DIR}/validate-small)
set(LANELAB_VALIDATE_SWEEPS transpose-workgroup transpose-loading reduce-image reduce-array apsp)
set(LANELAB_VALIDATE_RESULTS "")
foreach(sweep ${LANELAB_VALIDATE_SWEEPS})
  add_test(NAME validate.sweep.${sweep}
    COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> -DSWEEP=${sweep}
            -DRESULTS=${LANELAB_VALIDATE_OUT}/${sweep}.jsonl
            -P ${CMAKE_SOURCE_DIR}/tests/validate/run_sweep.cmake)
  set_tests_properties(validate.sweep.${sweep} PROPERTIES
    FIXTURES_SETUP validate_results SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 120)
  list(APPEND LANELAB_VALIDATE_RESULTS ${LANELAB_VALIDATE_OUT}/${sweep}.jsonl)
endforeach()
string(REPLACE ";" "|" LANELAB_VALIDATE_RESULTS_ARG "${LANELAB_VALIDATE_RESULTS}")
add_test(NAME validate.report
  COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> "-DRESULTS=${LANELAB_VALIDATE_RESULTS_ARG}"
          -DREPORT=${LANELAB_VALIDATE_OUT}/report
          -P ${CMAKE_SOURCE_DIR}/tests/validate/run_report.cmake)
set_tests_properties(validate.report PROPERTIES
  FIXTURES_REQUIRED validate_results FIXTURES_SETUP validate_report SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 60)
add_test(NAME validate.report_renders_in_chromium
  COMMAND ${CMAKE_COMMAND} -DREPORT=${LANELAB_VALIDATE_OUT}/report
          -P ${CMAKE_SOURCE_DIR}/tests/validate/render_report.cmake)
set_tests_properties(validate.report_renders_in_chromium PROPERTIES
  FIXTURES_REQUIRED validate_report SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 90)
add_test(NAME validate.single_workload_unchecked
  COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> -DRESULTS=${LANELAB_VALIDATE_OUT}/unchecked.jsonl
          -P ${CMAKE_SOURCE_DIR}/tests/validate/single_no_check.cmake)
set_tests_properties(validate.single_workload_unchecked PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 120)
add_test(NAME validate.save_buffer
  COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> -DOUT=${LANELAB_VALIDATE_OUT}/saved
          -P ${CMAKE_SOURCE_DIR}/tests/validate/save_buffer.cmake)
set_tests_properties(validate.save_buffer PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 120)
