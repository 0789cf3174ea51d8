# lanelab bench prints speeds (never asserted); this checks that it runs and
# that its blocked and textbook Floyd-Warshall agree on a small graph.
add_test(NAME bench.apsp_baseline_and_simulator_speed COMMAND lanelab bench --n 96 --block-factor 32)
