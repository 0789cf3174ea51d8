#pragma once
// Which dimensions of the workgroup ID each global access's address depends
// on. A load whose address leaves out a dimension the grid spreads over
// reads what every workgroup along that dimension reads: APSP's phase 3
// reads its pivot-row tile (r, j) by gl_WorkGroupID.x alone and its
// pivot-column tile (i, r) by .y alone, the lines phase 2 has just written,
// and only its own tile (i, j) by both. Such a load finds its lines in L2
// where the dispatch streams the rest of its buffers from DRAM
// (compute_unit.h, MemoryPath::grid_dimensions).
//
// A data-flow pass over the register slots, to a fixed point through the
// loops' phis: gl_WorkGroupID and gl_GlobalInvocationID give each component
// its own dimension; push constants, uniforms and the other builtins none;
// a value loaded from a storage buffer could be anything (kDependsOnMemory);
// one loaded from shared or private memory whatever was stored there.
#include <cstdint>
#include <vector>

#include "sim/frontend/program.h"

namespace lanelab::timing {

// Bits of a dependence mask: workgroup ID x, y, z, and a value read from a
// storage buffer (which may differ between any two workgroups).
constexpr uint8_t kDependsOnX = 1, kDependsOnY = 2, kDependsOnZ = 4, kDependsOnMemory = 8;

// Per instruction: the mask of the address a load from or store to a
// storage buffer uses; 0 for every other instruction.
std::vector<uint8_t> global_address_dependence(const frontend::Program& p);

// Whether a load whose address has dependence `mask` reads lines other
// workgroups of a grid spread over `grid_dimensions` (bits as above: the
// dimensions with more than one workgroup) read too.
inline bool read_by_other_workgroups(uint8_t mask, uint8_t grid_dimensions) {
  return grid_dimensions != 0 && !(mask & kDependsOnMemory) && (mask & grid_dimensions) != grid_dimensions;
}

}  // namespace lanelab::timing
