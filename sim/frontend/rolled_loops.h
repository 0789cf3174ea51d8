#pragma once
// Which loops a vendor compiler keeps rolled although their trip count is
// known: the timing model unrolls every other constant loop fully, as the
// compilers do (CompileOptions::unroll_loops), and issues what they issue.
//
// Two rules, each from NVIDIA's code for the suite and for probes
// (validate/data/README.md, "What keeping long tile copies rolled changed in
// the model"):
// - A loop whose body holds a barrier that not every trip executes (one
//   behind a branch). HybridShuffle32's round loop, whose shared-memory
//   rounds sit under `if (s >= 8u)`, ran 113 us on the H100 where the same
//   rounds written as two branch-free loops ran 56 us. A barrier every trip
//   executes (Threadgroup1d32, the reductions) does not keep a loop rolled.
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
// The driver also keeps APSP's k loops of phases 1 and 2 rolled, a barrier
// a trip; the model unrolls them: with them rolled it ran every shape's
// phases 1 and 2 nearer the device but put block 32 with 16x16 threads
// ahead of block 32 with 32x32 threads at n = 1000, the first's phase 2
// being 35% under the device for another reason (the README, as above).
// A loop whose trip count this cannot read (not `i = c0; i OP c1; i += c2`
// over 32-bit constants) is judged by neither count and left to spirv-opt.
#include <cstdint>
#include <unordered_set>
#include <vector>

namespace lanelab::frontend {

constexpr uint32_t kMaxUnrolledAccesses = 52;

// The OpLoopMerge header labels of the loops kept rolled; empty for a
// malformed module (the validator that runs next says where).
std::unordered_set<uint32_t> loops_kept_rolled(const std::vector<uint32_t>& words);

}  // namespace lanelab::frontend
