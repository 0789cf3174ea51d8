#pragma once
// Immediate post-dominators of the basic blocks, with a virtual exit block
// after every return: the block where lanes that diverged at a branch meet
// again (for structured SPIR-V, the selection or loop merge block).
#include <vector>

#include "sim/frontend/program.h"

namespace lanelab::frontend {

void compute_post_dominators(std::vector<Block>& blocks);

}  // namespace lanelab::frontend
