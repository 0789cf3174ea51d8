#pragma once
// What a GPU compiler does with work that only the far side of an early
// exit uses: it computes it there. APSP's workgroups off the pivot row and
// column leave at once (`if (...) return;`), but SPIR-V computes before that
// test what only the rest of the kernel needs (`owns_cells`, `pc.n`, the
// builtins they come from), so every idle workgroup issued it: 16
// instructions a subgroup, 10 with it computed past the test, and a grid of
// idle workgroups turned over 31-45% slower than the H100's
// (validate/data/README.md, "What computing past an early exit changed").
//
// An exit branch is a conditional branch one of whose targets leaves the
// function at once (a block that returns, or only branches to one that does,
// as the merge-return pass rewrites a `return`). What only computes
// (only_computes), and each load from a builtin input or a push constant,
// read-only for the dispatch, with its access chain, moves from the exit
// branch's block, and the straight run of blocks that leads to it, to the
// start of the other target, where the exit branch's block is that target's
// only predecessor and nothing left behind uses it. No lane computes a
// different value: the moved work has no side effect and reads nothing a
// store can change, and every use of it lies past the exit.
#include <cstdint>
#include <vector>

namespace lanelab::frontend {

struct SinkingResult {
  std::vector<uint32_t> words;
  uint32_t sunk = 0;  // instructions moved past an exit branch
};

SinkingResult sink_past_early_exits(const std::vector<uint32_t>& words);

}  // namespace lanelab::frontend
