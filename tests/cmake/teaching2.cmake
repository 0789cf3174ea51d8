# Teaching, part 2: `lanelab banks` from the command line (the picture's
# arithmetic is pinned in tests/unit/bank_picture_test.cpp).
add_test(NAME banks.stride2_h100_is_2way COMMAND lanelab banks --device h100 --stride 2)
set_tests_properties(banks.stride2_h100_is_2way PROPERTIES PASS_REGULAR_EXPRESSION "2-way bank conflict; 2 wavefronts")
add_test(NAME banks.stride2_mi210_no_conflict COMMAND lanelab banks --device mi210 --stride 2)
set_tests_properties(banks.stride2_mi210_no_conflict PROPERTIES PASS_REGULAR_EXPRESSION "no bank conflict; 4 wavefronts")
add_test(NAME banks.apsp_column_layout COMMAND lanelab banks apsp --line 78 --workgroup 3 --param tile_layout=column --param n=64 --device h100)
set_tests_properties(banks.apsp_column_layout PROPERTIES PASS_REGULAR_EXPRESSION "-way bank conflict")
find_program(LANELAB_BANKS_DOT dot)
if(LANELAB_BANKS_DOT)
  add_test(NAME banks.renders_svg COMMAND lanelab banks --device h100 --stride 32 --out ${CMAKE_BINARY_DIR}/banks-stride32.svg)
endif()
