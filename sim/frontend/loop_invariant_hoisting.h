#pragma once
// What every GPU compiler does with a loop's invariant work, and no pass of
// the SPIRV-Tools version we build on does safely (its loop-invariant code
// motion moves loads out of loops that store to the same memory: the
// Threadgroup transposes' shared-memory reads would leave their repetition
// loop):
//  - the builtins (gl_SubgroupInvocationID, gl_LocalInvocationID...) sit in
//    registers from the start: each load of an Input variable, and its
//    access chain where the indices are constants, moves to the start of its
//    function. An inlined helper reads gl_SubgroupInvocationID inside a loop
//    (Shuffle32's shuffle_round) otherwise.
//  - an instruction that only computes (only_computes) from values defined
//    outside its loop moves to the loop's preheader, the one block outside
//    the loop that enters it: Shuffle32's `gl_SubgroupInvocationID & s` and
//    its masks, computed again in every repetition as SPIR-V writes them.
//    A condition left live across the loop holds a predicate register for
//    all of it: at most 7 do (NVIDIA's P0-P6); Ballot32's 32 `i == row_ix`
//    are computed in every repetition on the H100. A loop that waits at a
//    barrier keeps what it computes: the NVIDIA driver computes the
//    Threadgroup transposes' partner addresses, masks and conditions again
//    in every repetition (75-80 instructions a repetition where 45 would
//    do), the same work it moves out of the Shuffle transposes' loops
//    (validate/data/sass/driver-2026-11-26/).
//  - in a loop that writes no memory and waits at no barrier, a load from a
//    fixed address (a variable, an access chain at constant indices) moves
//    too: the ALU latency benchmarks read their constants from a storage
//    buffer in every step, and the H100 runs them at the ALU's latency.
// Loops are taken inner first, so what leaves an inner loop may leave the
// enclosing one. Reading an input or a fixed address cannot fail, and what
// only computes has no side effect, so no path changes what it computes.
#include <cstdint>
#include <vector>

namespace lanelab::frontend {

struct HoistingResult {
  std::vector<uint32_t> words;
  uint32_t input_loads = 0;  // loads (and access chains) moved to their function's entry block
  uint32_t hoisted = 0;      // instructions moved out of a loop
};

HoistingResult hoist_loop_invariants(const std::vector<uint32_t>& words);

}  // namespace lanelab::frontend
