#pragma once
// Which loops a vendor compiler keeps rolled although their trip count is
// known: the timing model unrolls every other constant loop fully, as the
// compilers do (CompileOptions::unroll_loops), and issues what they issue.
//
// Five rules, each from NVIDIA's code for the suite and for probes
// (validate/data/README.md, "What keeping long tile copies rolled changed in
// the model", "What APSP's k steps changed in the model" and "What keeping
// phase 2's cell loop rolled changed in the model"):
// - A loop whose body holds a barrier that not every trip executes (one
//   behind a branch). HybridShuffle32's round loop, whose shared-memory
//   rounds sit under `if (s >= 8u)`, ran 113 us on the H100 where the same
//   rounds written as two branch-free loops ran 56 us.
// - A loop with a barrier on every trip and more than
//   kMaxUnrolledBarrierTrips trips. The driver unrolls the Threadgroup
//   transposes' 3 and 5 rounds and keeps APSP's k loops of phases 1 and 2
//   rolled at every block factor (8 to 78 trips), a step a trip with its
//   barrier: the loop's own compare and branch, and the address of a step's
//   pivot words computed from k, are part of every step. Timed apart from
//   the phases' fixed part (half the k steps against all of them), a step
//   costs the device 70-772 ns, and the model 50-695 ns with them unrolled.
// - A loop without a barrier that, fully unrolled, would make more than
//   kMaxUnrolledAccesses storage-buffer loads and stores and shared-memory
//   stores a lane. The driver unrolls APSP's tile copy at 52 (a lane's 13
//   cells of two loads and two stores each), keeps its row loop rolled at
//   56 and more (14 to 20 cells; the inner loop over a row's cells
//   unrolled), unrolls the copy of phase 1 (a load and a store a cell) up
//   to 20 cells and keeps 27 rolled, and unrolls phase 3's load of 27 cells
//   into registers and every write-back of up to 27 cells (a shared load and
//   a store to the buffer each): shared loads do not count. Whether it
//   unrolls 53 is not known.
// - A loop with one loop inside it, both of at least kMinRolledNestTrips
//   trips and together at least kMinRolledNestInnerTrips trips of the inner
//   body, where that body holds an if/else whose two sides both read shared
//   memory (which the driver predicates, both sides' loads issued). APSP's
//   phase 2 has one such if/else a cell (`pivot_row`). In the driver's 15
//   listings of phase 2 with more than one cell a lane (the suite's and the
//   unroll probe's, validate/data/sass/driver-2026-11-26*/), it keeps the
//   row loop rolled, a row's cells unrolled in each trip, at 4x4, 3x6 and
//   9x3 cells, and unrolls it at 5x3 and 3x3 and wherever a row or a column
//   has 1 or 2 cells (2x2, 2x8, 1x19, 6x2, 7x2, 8x2, 10x2, 13x1, 20x1).
//   Phase 1, whose cells have no such if/else, is unrolled at 4x4, 3x6 and
//   9x3 too: the listings tie the rolled loop to the if/else, not to size.
// - A loop without a barrier whose steps fold into the same accumulators,
//   two or more (its header's phis but the counter's, and the private
//   array elements it updates at an index its counter does not change,
//   inner loops' trips counted), more than kMaxUnrolledAccumulations
//   updates in all. The driver keeps such a loop, several steps a trip
//   (partial_loop_unrolling.h): APSP's phase 3 k loop, a lane's cells its
//   accumulators, unrolled fully at one cell (blocks 16 and 32, 16 and 32
//   updates) and at several cells kept in trips of 10 steps (2x2 cells,
//   block 32; 9 at block 64 with 32x32 threads), 8 (3x3), 6 (6x2), 5 (5x3),
//   4 (4x4 and 7x2); and unrolled fully the luminance fetch loop's 2 sums of
//   2 to 16 fetches. The steps a trip: the most that keep a trip within
//   kMaxTripAccumulations updates and kMaxStepsPerTrip steps and leave at
//   most kMaxStepsLeftOver steps over the last whole trip, which gives the
//   driver's count for 6 of those 7 shapes (5 for 4 at 7x2) and for every
//   lane of 2x2 cells the trip probe compiled (validate/data/sass/
//   driver-trips-2026-11-28: 10 steps at block 32, 13 at 40, 12 at 48, 14
//   at 56, 9 at 64), not for lanes of 8 cells of block 64 (9 for the
//   driver's 8 and 4). The probe's 8 other shapes of 13 to 27
//   cells (1x13, 1x20, 19x1, 2x8, 8x2, 2x10, 3x9, 6x3) the driver keeps a
//   step a trip, which no count of cells or of instructions found so far
//   separates from 5x3 and 7x2: this gives them 2 to 5 steps.
// A loop whose trip count this cannot read (not `i = c0; i OP c1; i += c2`
// over 32-bit constants) is judged by none of the counts and left to spirv-opt.
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace lanelab::frontend {

constexpr uint32_t kMaxUnrolledAccesses = 52;
// The driver unrolls 5 such trips and keeps 8 rolled (APSP's phase 1 with
// block 16 cut to half its k steps: the same binary).
constexpr uint32_t kMaxUnrolledBarrierTrips = 5;
// A nest of cells with such an if/else: rolled at 4x4, 3x6 and 9x3 cells,
// unrolled at 5x3 (15) and wherever a row or a column has 1 or 2.
constexpr uint32_t kMinRolledNestTrips = 3;
constexpr uint32_t kMinRolledNestInnerTrips = 16;
// Accumulating loops: unrolled fully up to 64 updates (one cell of block 32,
// 32; 4 cells of block 32, 128, kept); trips of at most 75 updates (5x3
// cells' 5 steps) and 14 steps (2x2 cells of block 56), at most 2 steps
// left over (2x2 cells of block 64: 9 steps, 7 trips and 1 over).
constexpr uint32_t kMaxUnrolledAccumulations = 64;
constexpr uint32_t kMaxTripAccumulations = 75;
constexpr uint32_t kMaxStepsPerTrip = 14;
constexpr uint32_t kMaxStepsLeftOver = 2;

// The OpLoopMerge header labels of the loops kept rolled, each with the
// steps a trip the driver unrolls it to (1: as written); empty for a
// malformed module (the validator that runs next says where).
std::unordered_map<uint32_t, uint32_t> loops_kept_rolled(const std::vector<uint32_t>& words);

}  // namespace lanelab::frontend
