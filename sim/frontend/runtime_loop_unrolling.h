#pragma once
// What a vendor compiler does with a short loop whose trip count only the run
// knows: it unrolls it a few times and keeps a remainder loop. The second pass
// of the reductions, `for (i = tid; i < PARTIAL_COUNT; i += 256) sum +=
// partial[i];`, runs on the H100 as fast as the same loop written with four
// loads a trip, and twice as long as written with two
// (validate/data/README.md, the device calls of 2026-11-24 06:50Z-07:05Z): the
// driver issues four iterations' loads before the first add waits. SPIR-V
// keeps the loop, spirv-opt's unroller takes only loops of a known trip
// count, and the timing model, which issues what the GPU issues, would wait a
// load's latency on every trip.
//
// The loops taken are the shape glslang and spirv-opt give such a `for`: a
// header of phis and one comparison `i < n` (or `n > i`) of an induction
// variable against a value from outside the loop, and one block that is both
// the body and the continue target, adding a positive constant to `i`, with
// no barrier, no call, no nested control flow and no decorated result. A
// loop that asks not to be unrolled stays (the microbenchmarks' do), and so
// does one whose start and bound are both constants: its trip count is known,
// and such a loop is spirv-opt's to unroll or the module's to keep.
//
// The loop becomes a loop of `factor` bodies, run while `factor` more trips
// remain (`i < n && n - i > (factor - 1) * step`, which cannot wrap), then the
// loop as written for the rest. The bodies keep their order, so a float sum
// adds in the same order and the result is the same bit for bit.
#include <cstdint>
#include <vector>

namespace lanelab::frontend {

struct RuntimeUnrollingResult {
  std::vector<uint32_t> words;
  uint32_t unrolled = 0;  // loops given an unrolled copy
};

RuntimeUnrollingResult unroll_runtime_loops(const std::vector<uint32_t>& words, uint32_t factor);

}  // namespace lanelab::frontend
