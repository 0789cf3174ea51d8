# cmake -DLANELAB=... -DRESULTS=FILE.jsonl -P single_no_check.cmake
# One workload timed without its CPU check (validate --no-check), as the
# APSP phase measurements beyond n = 1024 are: the record says it was not
# checked and why, and times each pipeline of the sequence (per_pipeline:
# APSP's three phases, 4 rounds each at n = 100 with block 32). A sweep
# refuses the option. Exit code 2 of lanelab (no Vulkan device) is a skip.
file(REMOVE ${RESULTS})
include(${CMAKE_CURRENT_LIST_DIR}/validate_or_skip.cmake)
lanelab_validate(apsp --param n=100 --param block_factor=32 --no-check --repeats 2 --warmup 1 --out ${RESULTS})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lanelab validate --no-check exited ${rc}:\n${out}\n${err}")
endif()
file(READ ${RESULTS} record)
string(JSON status GET "${record}" correctness status)
string(JSON message GET "${record}" correctness message)
if(NOT status STREQUAL "unchecked" OR NOT message MATCHES "\\(--no-check\\)")
  message(FATAL_ERROR "expected an unchecked record saying --no-check, got ${status}: ${message}")
endif()
string(JSON total GET "${record}" timing stats median)
set(sum 0)
foreach(phase phase1 phase2 phase3)
  string(JSON dispatches GET "${record}" timing per_pipeline ${phase} dispatches)
  string(JSON median GET "${record}" timing per_pipeline ${phase} median)
  if(NOT dispatches EQUAL 4 OR NOT median GREATER 0)
    message(FATAL_ERROR "${phase}: ${dispatches} dispatches, median ${median} ns (expected 4, above 0)")
  endif()
  string(REGEX REPLACE "\\..*$" "" whole_ns "${median}")
  math(EXPR sum "${sum} + ${whole_ns}")
endforeach()
# The dispatches' own times add up to no more than the whole sequence's.
if(sum GREATER total)
  message(FATAL_ERROR "the phases' medians add up to ${sum} ns, more than the sequence's ${total} ns")
endif()
execute_process(COMMAND ${LANELAB} validate --sweep apsp --no-check RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "a sweep decides point by point")
  message(FATAL_ERROR "validate --sweep --no-check exited ${rc}: ${err}")
endif()
