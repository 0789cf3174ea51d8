#pragma once
// What a vendor compiler does with a short if/else: it predicates it. Both
// sides are computed by every lane and the merge picks each lane's value, with
// no branch, no divergence and no reconvergence. The H100's driver compiles
// Shuffle32's `if (lane & s) c = b << s; else { m = ~m; c = b >> s; }` to the
// very binary it makes of the same code written with `?:` selects
// (validate/data/README.md). SPIR-V keeps the branch (glslang writes even a
// `?:` of two computations as one), so the timing model, which counts what
// the GPU issues, flattens it here: a selection whose sides only compute
// (no memory access, no barrier, no subgroup operation, no division) in at
// most `max_side_instructions` each becomes the sides' instructions in the
// header and an OpSelect per merge phi. A selection marked DontFlatten stays;
// one marked Flatten is flattened at any length.
#include <cstdint>
#include <vector>

namespace lanelab::frontend {

struct FlatteningResult {
  std::vector<uint32_t> words;
  uint32_t flattened = 0;  // selections turned into selects
};

FlatteningResult flatten_short_branches(const std::vector<uint32_t>& words, uint32_t max_side_instructions);

}  // namespace lanelab::frontend
