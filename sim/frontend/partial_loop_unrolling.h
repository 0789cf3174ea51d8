#pragma once
// What a vendor compiler does with a loop it neither keeps as written nor
// unrolls fully: it unrolls it a few steps a trip and keeps a remainder loop.
//
// A short loop whose trip count only the run knows. The second pass of the
// reductions, `for (i = tid; i < PARTIAL_COUNT; i += 256) sum +=
// partial[i];`, runs on the H100 as fast as the same loop written with four
// loads a trip, and twice as long as written with two
// (validate/data/README.md, the device calls of 2026-11-24 06:50Z-07:05Z): the
// driver issues four iterations' loads before the first add waits. SPIR-V
// keeps the loop, spirv-opt's unroller takes only loops of a known trip
// count, and the timing model, which issues what the GPU issues, would wait a
// load's latency on every trip. A loop that asks not to be unrolled stays (the
// microbenchmarks' do), and so does one whose start and bound are both
// constants, unless it is one of the next kind.
//
// A loop of known trip count that folds into many accumulators
// (rolled_loops.h): APSP's phase 3 k loop, trips of 10 steps for 2x2 cells
// a lane at block 32 (9 at block 64), 4 for 4x4. Its steps' loads that are
// neighbours (a row's pivot-column words) are then read together as wide as
// the counter's alignment, a multiple of the steps, allows
// (instruction_fusion.h).
//
// The loops taken are the shape glslang and spirv-opt give such a `for`: a
// header of phis and one comparison `i < n` (or `n > i`) of an induction
// variable against a value from outside the loop, and one block that is both
// the body and the continue target, adding a positive constant to `i`, with
// no barrier, no call, no nested control flow and no decorated result.
//
// The loop becomes a loop of `factor` bodies, run while `factor` more trips
// remain (`i < n && n - i > (factor - 1) * step`, which cannot wrap), then,
// where only the run knows the trip count, one of half as many bodies, and so
// on down to 2, each run at most once, then the loop as written for the rest
// (at most one trip): the driver's second pass is a trip of 4 loads, then
// one of 2, then 1 (validate/data/sass/driver-2026-11-26/*/final.sass), so
// that a lane's 7 trips wait three round trips, not four. The bodies keep
// their order, so a float sum adds in the same order and the result is the
// same bit for bit.
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace lanelab::frontend {

struct PartialUnrollingResult {
  std::vector<uint32_t> words;
  uint32_t unrolled = 0;  // loops given an unrolled copy
};

// Loops of a run-time trip count get `runtime_factor` steps a trip; the loops
// headed by a label of `steps_per_trip` (loops_kept_rolled) its count.
PartialUnrollingResult unroll_loops_partly(const std::vector<uint32_t>& words, uint32_t runtime_factor,
                                           const std::unordered_map<uint32_t, uint32_t>& steps_per_trip);

}  // namespace lanelab::frontend
