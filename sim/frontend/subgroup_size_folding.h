#pragma once
// What a driver knows that SPIR-V does not: the subgroup size it compiles the
// pipeline for (the H100's is 32, minimum = maximum). gl_SubgroupSize is a
// constant to it, so a kernel's guard on the size (every transpose checks
// that it is a multiple of 32 or 8) costs nothing and leaves no branch.
// Folding the loads of the builtin lets the optimizer that runs after it
// (constant propagation, dead-branch elimination) do the rest. What the
// invocation id's range would decide (`gl_SubgroupInvocationID >> 5` is 0 on
// 32-wide subgroups) is left: the driver does not fold it, as Ballot32's
// binary with the shift is 512 bytes longer than with the 0 written in
// (validate/data/README.md).
#include <cstdint>
#include <vector>

namespace lanelab::frontend {

struct SubgroupFoldingResult {
  std::vector<uint32_t> words;
  uint32_t folded = 0;  // loads of gl_SubgroupSize replaced by the constant
};

SubgroupFoldingResult fold_subgroup_size(const std::vector<uint32_t>& words, uint32_t subgroup_size);

}  // namespace lanelab::frontend
