# cmake -DLANELAB=... -DSWEEP=NAME -DRESULTS=FILE.jsonl -P run_sweep.cmake
# Runs one sweep at its small size on the first Vulkan device, the simulator
# compared at the device's subgroup size. Exit code 2 of lanelab (no Vulkan
# device or driver) is a skip. A failed validation fails the test, except
# the reduction variant that the document itself shows to be racy: its last
# 32 steps have no barriers and are wrong below 32 lanes in lockstep.
get_filename_component(dir ${RESULTS} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
include(${CMAKE_CURRENT_LIST_DIR}/validate_or_skip.cmake)
lanelab_validate(--sweep ${SWEEP} --size small --compare-sim --repeats 3 --warmup 1 --out ${RESULTS})
if(NOT EXISTS ${RESULTS})
  message(FATAL_ERROR "lanelab validate exited ${rc} without writing ${RESULTS}:\n${err}")
endif()
if(NOT rc EQUAL 0)
  string(REGEX MATCHALL "FAIL [^\n]*" failures "${out}")
  if(NOT failures)
    message(FATAL_ERROR "lanelab validate exited ${rc}:\n${err}")
  endif()
  foreach(line IN LISTS failures)
    if(NOT line MATCHES "variant=unrolled_racy")
      message(FATAL_ERROR "failed validation:\n${line}\n\n${err}")
    endif()
  endforeach()
  message("only the racy reduction variant failed, as its document says it does below 32 lanes")
endif()
