# Calibration on the machine's Vulkan device (lavapipe in CI): the micro sweep
# at its small size, then `lanelab calibrate` on its results into the build
# directory. Without a Vulkan device the test reports itself skipped.
add_test(NAME calibration.micro_sweep_and_calibrate
  COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> -DWORK_DIR=${CMAKE_BINARY_DIR}/calibration-small
          -P ${CMAKE_SOURCE_DIR}/tests/validate/calibrate_micro.cmake)
set_tests_properties(calibration.micro_sweep_and_calibrate PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 300)
# The committed calibrated models are the calibrations of the committed measurements.
add_test(NAME calibration.committed_files_from_their_measurements
  COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
          -DWORK_DIR=${CMAKE_BINARY_DIR}/calibration-committed
          -P ${CMAKE_SOURCE_DIR}/tests/validate/calibrate_committed.cmake)
