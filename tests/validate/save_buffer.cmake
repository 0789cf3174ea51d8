# cmake -DLANELAB=... -DOUT=DIR -P save_buffer.cmake
# validate --save-buffer writes a buffer's bytes after the last timed repeat:
# the reduction's input (n floats) and its partials (one float a workgroup
# of 256 lanes, each summing 512 floats), whose first partial is the sum of
# the input's first 512 floats. A name the launch lacks is an error record.
# Exit code 2 of lanelab (no Vulkan device) is a skip.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
include(${CMAKE_CURRENT_LIST_DIR}/validate_or_skip.cmake)
lanelab_validate(reduce --param n=4096 --param variant=subgroup_add --repeats 1 --warmup 0 --preheat-ms 0
                 --save-buffer input=${OUT}/input.bin --save-buffer partials=${OUT}/partials.bin
                 --out ${OUT}/saved.jsonl)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lanelab validate --save-buffer exited ${rc}:\n${out}\n${err}")
endif()
file(SIZE ${OUT}/input.bin input_bytes)
file(SIZE ${OUT}/partials.bin partial_bytes)
if(NOT input_bytes EQUAL 16384 OR NOT partial_bytes EQUAL 32)
  message(FATAL_ERROR "saved ${input_bytes} and ${partial_bytes} bytes, expected 16384 (input) and 32 (partials)")
endif()
find_program(PYTHON python3)
if(PYTHON)
  execute_process(COMMAND ${PYTHON} -c "
import struct, sys
x = struct.unpack('4096f', open(sys.argv[1], 'rb').read())
p = struct.unpack('8f', open(sys.argv[2], 'rb').read())
want = [sum(x[i * 512:(i + 1) * 512]) for i in range(8)]
bad = [(i, a, b) for i, (a, b) in enumerate(zip(p, want)) if abs(a - b) > 1e-3 * b]
sys.exit('partials differ from the saved input: %s' % bad if bad else 0)" ${OUT}/input.bin ${OUT}/partials.bin
    RESULT_VARIABLE sums_rc ERROR_VARIABLE sums_err)
  if(NOT sums_rc EQUAL 0)
    message(FATAL_ERROR "${sums_err}")
  endif()
endif()
lanelab_validate(reduce --param n=4096 --repeats 1 --warmup 0 --preheat-ms 0 --save-buffer no_such=${OUT}/x.bin
                 --out ${OUT}/missing.jsonl)
file(READ ${OUT}/missing.jsonl record)
string(JSON message GET "${record}" correctness message)
if(rc EQUAL 0 OR NOT message MATCHES "no buffer named 'no_such'")
  message(FATAL_ERROR "a missing buffer: exit ${rc}, record says '${message}'")
endif()
