# Workloads on the simulator (`lanelab run WORKLOAD`), checked against their
# CPU references, at subgroup sizes 8, 32 and 64 where the kernel supports
# them; the examples/ launch files; and `lanelab emit` round trips (the
# emitted AmberScript, run as a file, passes the EXPECTs it carries).

# lanelab_workload_test(NAME workload SIZES w... PARAMS k=v...)
function(lanelab_workload_test name workload)
  cmake_parse_arguments(arg "" "" "SIZES;PARAMS" ${ARGN})
  set(param_args "")
  foreach(assignment IN LISTS arg_PARAMS)
    list(APPEND param_args --param ${assignment})
  endforeach()
  foreach(width IN LISTS arg_SIZES)
    add_test(NAME workload.${name}.w${width}
      COMMAND $<TARGET_FILE:lanelab> run ${workload} ${param_args} --subgroup-size ${width})
  endforeach()
endfunction()

# Transpose: every kernel; Shuffle32 and Ballot32 need 32 lanes.
foreach(kernel Threadgroup1d32 Threadgroup2d32 Threadgroup1d8 Threadgroup2d8 Shuffle8 HybridShuffle32)
  lanelab_workload_test(transpose.${kernel} transpose SIZES 8 32 64 PARAMS kernel=${kernel} matrices=32)
endforeach()
foreach(kernel Shuffle32 Ballot32)
  lanelab_workload_test(transpose.${kernel} transpose SIZES 32 64 PARAMS kernel=${kernel} matrices=32)
  # Refused before running, naming the kernel and the size.
  add_test(NAME workload.transpose.${kernel}.w8.refused
    COMMAND $<TARGET_FILE:lanelab> run transpose --param kernel=${kernel} --subgroup-size 8)
  set_tests_properties(workload.transpose.${kernel}.w8.refused PROPERTIES
    PASS_REGULAR_EXPRESSION "transpose\\(${kernel}\\) cannot run at subgroup size 8")
endforeach()

# Reduce: every variant at any width, except that the unrolled_racy variant's
# barrier-free last 32 steps are only right in lockstep subgroups of >= 32 lanes.
foreach(variant interleaved_divergent interleaved_strided sequential first_add_during_load unrolled_barriers
                subgroup_add)
  lanelab_workload_test(reduce.${variant} reduce SIZES 8 32 64 PARAMS variant=${variant} n=8192)
endforeach()
lanelab_workload_test(reduce.unrolled_racy reduce SIZES 32 64 PARAMS variant=unrolled_racy n=8192)
add_test(NAME workload.reduce.unrolled_racy.w8.fails
  COMMAND $<TARGET_FILE:lanelab> run reduce --param variant=unrolled_racy --param n=8192 --subgroup-size 8)
set_tests_properties(workload.reduce.unrolled_racy.w8.fails PROPERTIES
  PASS_REGULAR_EXPRESSION "FAIL workload:reduce\\(unrolled_racy\\): workgroup [0-9]+: expected")
# A size that is not a multiple of the workgroup's elements: the last workgroup is partial.
lanelab_workload_test(reduce.sequential.n1000 reduce SIZES 32 PARAMS variant=sequential n=1000 workgroup_size=128)

# Luminance: the document's last 32 steps have no barriers either (needs >= 32 lanes).
foreach(variant fetch2_8x16 fetch4_4x16 fetch4_8x32 fetch4_16x32 fetch4_16x64 fetch4_16x64_2xshared
                fetch16_16x64_2xshared)
  lanelab_workload_test(luminance.${variant} luminance SIZES 32 64 PARAMS variant=${variant} image=128x64)
endforeach()
add_test(NAME workload.luminance.w8.refused
  COMMAND $<TARGET_FILE:lanelab> run luminance --subgroup-size 8)
set_tests_properties(workload.luminance.w8.refused PROPERTIES
  PASS_REGULAR_EXPRESSION "luminance\\(fetch2_8x16\\) cannot run at subgroup size 8")

# APSP: shared (row- and column-major tiles) and global; n = 70 is not a multiple of BF = 32.
lanelab_workload_test(apsp.shared.row apsp SIZES 8 32 64
  PARAMS n=70 edges=300 block_factor=32 memory=shared tile_layout=row)
lanelab_workload_test(apsp.shared.column apsp SIZES 8 32 64
  PARAMS n=70 edges=300 block_factor=32 memory=shared tile_layout=column)
lanelab_workload_test(apsp.global apsp SIZES 8 32 64 PARAMS n=70 edges=300 block_factor=32 memory=global)
lanelab_workload_test(apsp.shared.bf16_8x8 apsp SIZES 32 PARAMS n=40 edges=150 block_factor=16 threads=8x8)

# The branch microbenchmarks: workgroups 0-15 take every combination of sides
# (the one-side ones: all the first).
foreach(bench branch_throughput branch_free_throughput branch_per_step_throughput branch_one_side_throughput
              branch_one_side_heavy_throughput)
  lanelab_workload_test(micro.${bench} micro SIZES 8 32 PARAMS bench=${bench} iterations=2 workgroups=16 workgroup_size=64)
endforeach()

# examples/: each file as written (honouring its "# EXPECT-ERROR:" lines), and
# the ones that must give the same results at any width also at 8 and 64 lanes.
file(GLOB LANELAB_EXAMPLES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/examples/*.amber)
foreach(example ${LANELAB_EXAMPLES})
  get_filename_component(example_name ${example} NAME_WE)
  add_test(NAME example.${example_name}
    COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> -DCASE=${example}
            -P ${CMAKE_SOURCE_DIR}/tests/run_amber_case.cmake)
  file(STRINGS ${example} expects_error REGEX "^#[ \t]*EXPECT-ERROR:")
  if(NOT expects_error)
    foreach(width 8 64)
      add_test(NAME example.${example_name}.w${width}
        COMMAND $<TARGET_FILE:lanelab> run ${example} --subgroup-size ${width})
    endforeach()
  endif()
endforeach()

# lanelab emit: the written AmberScript carries the CPU reference as EXPECTs.
# lanelab_emit_test(NAME workload WIDTH w PARAMS k=v...)
function(lanelab_emit_test name workload width)
  set(params ${ARGN})
  string(REPLACE ";" "\\;" params "${params}")
  add_test(NAME emit.${name}.w${width}
    COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> -DWORKLOAD=${workload} -DPARAMS=${params}
            -DWIDTH=${width} -DFILE=${CMAKE_BINARY_DIR}/emitted/${name}.w${width}.amber
            -P ${CMAKE_SOURCE_DIR}/tests/run_emitted_workload.cmake)
endfunction()
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/emitted)
lanelab_emit_test(transpose.Shuffle32 transpose 32 kernel=Shuffle32 matrices=16)
lanelab_emit_test(transpose.Threadgroup2d8 transpose 8 kernel=Threadgroup2d8 matrices=16)
lanelab_emit_test(reduce.sequential reduce 8 variant=sequential n=4096)
lanelab_emit_test(reduce.unrolled_racy reduce 32 variant=unrolled_racy n=4096)
lanelab_emit_test(luminance.fetch4_8x32 luminance 32 variant=fetch4_8x32 image=64x64)
lanelab_emit_test(apsp.shared.column apsp 32 n=70 edges=300 block_factor=32 tile_layout=column)
