# The committed H100 comparison: lanelab report on the H100 measurements (every
# point of the suite three times: 2026-11-22, then twice on 2026-11-26) and the timing
# model's predictions of the same sweeps must write the "Predicted vs
# measured" section with its MAPE figures (validate/data/README.md).
add_test(NAME comparison.h100_report
  COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab>
          "-DRESULTS=${CMAKE_SOURCE_DIR}/validate/data/h100-2026-11-22.jsonl|${CMAKE_SOURCE_DIR}/validate/data/h100-suite-again-2026-11-26.jsonl|${CMAKE_SOURCE_DIR}/validate/data/h100-suite-again-run2-2026-11-26.jsonl|${CMAKE_SOURCE_DIR}/validate/data/h100-suite-run3-2026-11-26.jsonl|${CMAKE_SOURCE_DIR}/validate/data/h100-predictions-first-cell-2026-11-28.jsonl"
          -DREPORT=${CMAKE_BINARY_DIR}/comparison-h100
          -P ${CMAKE_SOURCE_DIR}/tests/validate/check_comparison.cmake)
set_tests_properties(comparison.h100_report PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 120)
