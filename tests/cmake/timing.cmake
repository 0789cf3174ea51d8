# lanelab predict end to end: text and JSON output of a small workload.
add_test(NAME timing.predict_reduce_text
  COMMAND lanelab predict reduce --device rtx2080ti --param n=65536)
set_tests_properties(timing.predict_reduce_text PROPERTIES
  PASS_REGULAR_EXPRESSION "shared_load_bank_conflict.*achieved_occupancy")
add_test(NAME timing.predict_apsp_json
  COMMAND lanelab predict apsp --device mi210 --param n=64 --json)
set_tests_properties(timing.predict_apsp_json PROPERTIES PASS_REGULAR_EXPRESSION "\"source\": \"prediction\"")
