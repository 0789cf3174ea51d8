# Writes a workload as AmberScript with `lanelab emit` and runs the file with
# `lanelab run`: the emitted EXPECTs (the CPU reference) must all pass.
#
#   cmake -DLANELAB=<lanelab> -DWORKLOAD=reduce "-DPARAMS=variant=sequential;n=4096"
#         -DWIDTH=32 -DFILE=<where to write the .amber> -P tests/run_emitted_workload.cmake
cmake_minimum_required(VERSION 3.20)

if(NOT DEFINED LANELAB OR NOT DEFINED WORKLOAD OR NOT DEFINED FILE)
  message(FATAL_ERROR "usage: cmake -DLANELAB=... -DWORKLOAD=... -DFILE=... [-DPARAMS=a=1;b=2] [-DWIDTH=32] -P run_emitted_workload.cmake")
endif()

set(run_args "")
if(DEFINED WIDTH)
  set(run_args --subgroup-size ${WIDTH})
endif()
set(param_args "")
foreach(assignment IN LISTS PARAMS)
  list(APPEND param_args --param "${assignment}")
endforeach()

execute_process(
  COMMAND "${LANELAB}" emit "${WORKLOAD}" ${param_args} --output "${FILE}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lanelab emit ${WORKLOAD} ${param_args} failed (${rc}):\n${out}${err}")
endif()

execute_process(
  COMMAND "${LANELAB}" run "${FILE}" ${run_args}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lanelab run ${FILE} ${run_args} (emitted from ${WORKLOAD}) exit ${rc}:\n${out}${err}")
endif()
string(REGEX MATCH "[0-9]+ passed, 0 failed" summary "${out}")
if(NOT summary OR summary MATCHES "^0 passed")
  message(FATAL_ERROR "the emitted script checked nothing:\n${out}${err}")
endif()
message(STATUS "${summary}: ${FILE}")
