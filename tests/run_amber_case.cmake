# Runs one AmberScript case through lanelab and checks the outcome.
#
#   cmake -DLANELAB=path/to/lanelab -DCASE=tests/amber/foo.amber -P tests/run_amber_case.cmake
#
# Header comment lines read from the case (anywhere in the file, one per line):
#   # ARGS: <extra lanelab arguments>      e.g. "# ARGS: --subgroup-size 8"
#   # EXPECT-ERROR: <substring>            the run must fail and print the substring
# A case without EXPECT-ERROR must exit 0. A case with one or more
# EXPECT-ERROR lines (or named *.fail.amber) must exit non-zero -- not crash --
# and every substring must occur in stdout+stderr.
cmake_minimum_required(VERSION 3.20)

if(NOT DEFINED LANELAB OR NOT DEFINED CASE)
  message(FATAL_ERROR "usage: cmake -DLANELAB=<lanelab> -DCASE=<file.amber> -P run_amber_case.cmake")
endif()
if(NOT EXISTS "${CASE}")
  message(FATAL_ERROR "case file not found: ${CASE}")
endif()

file(STRINGS "${CASE}" header_lines REGEX "^#[ \t]*(ARGS|EXPECT-ERROR):")

set(extra_args "")
set(expected_errors "")
foreach(line IN LISTS header_lines)
  if(line MATCHES "^#[ \t]*ARGS:[ \t]*(.*)$")
    separate_arguments(parsed UNIX_COMMAND "${CMAKE_MATCH_1}")
    list(APPEND extra_args ${parsed})
  elseif(line MATCHES "^#[ \t]*EXPECT-ERROR:[ \t]*(.*[^ \t])[ \t]*$")
    list(APPEND expected_errors "${CMAKE_MATCH_1}")
  endif()
endforeach()

set(expect_failure FALSE)
if(expected_errors OR CASE MATCHES "\\.fail\\.amber$")
  set(expect_failure TRUE)
endif()

execute_process(
  COMMAND "${LANELAB}" run "${CASE}" ${extra_args}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  TIMEOUT 600)
set(output "${out}${err}")
string(JOIN " " cmdline "${LANELAB}" run "${CASE}" ${extra_args})

if(NOT rc MATCHES "^[0-9]+$")
  # A signal, a timeout or a failure to start: never an acceptable outcome.
  message(FATAL_ERROR "${cmdline}\nlanelab did not exit normally: ${rc}\n--- output ---\n${output}")
endif()

if(NOT expect_failure)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${cmdline}\nexpected success, exit code ${rc}\n--- output ---\n${output}")
  endif()
  message(STATUS "PASS ${CASE}")
  return()
endif()

if(rc EQUAL 0)
  message(FATAL_ERROR "${cmdline}\nexpected a failure but lanelab exited 0\n--- output ---\n${output}")
endif()
set(missing "")
foreach(needle IN LISTS expected_errors)
  string(FIND "${output}" "${needle}" pos)
  if(pos EQUAL -1)
    list(APPEND missing "${needle}")
  endif()
endforeach()
if(missing)
  list(JOIN missing "', '" missing_text)
  message(FATAL_ERROR "${cmdline}\nexit code ${rc} as expected, but the output lacks: '${missing_text}'\n--- output ---\n${output}")
endif()
message(STATUS "PASS (expected failure, exit ${rc}) ${CASE}")
