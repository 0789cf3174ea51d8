# lanelab predict end to end: text and JSON output of a small workload.
add_test(NAME timing.predict_reduce_text
  COMMAND lanelab predict reduce --device rtx2080ti --param n=65536)
set_tests_properties(timing.predict_reduce_text PROPERTIES
  PASS_REGULAR_EXPRESSION "shared_load_bank_conflict.*achieved_occupancy")
add_test(NAME timing.predict_apsp_json
  COMMAND lanelab predict apsp --device mi210 --param n=64 --json)
set_tests_properties(timing.predict_apsp_json PROPERTIES PASS_REGULAR_EXPRESSION "\"source\": \"prediction\"")
# Registers from a driver: the counts a measurement recorded, matched by
# workload and parameters; a point the file lacks is an error naming it.
add_test(NAME timing.predict_registers_from
  COMMAND lanelab predict transpose --device h100-calibrated --param kernel=Threadgroup1d32 --param matrices=32768
          --param workgroup_size=256 --registers-from ${CMAKE_SOURCE_DIR}/validate/data/h100-2026-11-22.jsonl)
set_tests_properties(timing.predict_registers_from PROPERTIES PASS_REGULAR_EXPRESSION "limit: subgroup slots")
add_test(NAME timing.predict_registers_from_unmeasured
  COMMAND lanelab predict transpose --device h100 --param matrices=7
          --registers-from ${CMAKE_SOURCE_DIR}/validate/data/h100-2026-11-22.jsonl)
set_tests_properties(timing.predict_registers_from_unmeasured PROPERTIES
  PASS_REGULAR_EXPRESSION "h100-2026-11-22.jsonl has no measurement of transpose")
# A sweep predicted on two threads, and resumed: the same records as one
# thread writes.
add_test(NAME timing.predict_sweep_jobs_and_resume
  COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> -DDIR=${CMAKE_BINARY_DIR}/predict-sweep-jobs
          -P ${CMAKE_SOURCE_DIR}/tests/validate/predict_sweep_jobs.cmake)
set_tests_properties(timing.predict_sweep_jobs_and_resume PROPERTIES TIMEOUT 120)
