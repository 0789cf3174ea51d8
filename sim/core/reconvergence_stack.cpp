#include "sim/core/reconvergence_stack.h"

namespace lanelab::core {

using frontend::kExitBlock;

static uint32_t block_start(const frontend::Program& program, uint32_t block) {
  return block == kExitBlock ? 0 : program.blocks[block].first;
}

void ReconvergenceStack::reset(uint32_t entry_block, uint32_t pc, LaneMask lanes) {
  entries_.clear();
  entries_.push_back({entry_block, pc, lanes, kExitBlock});
}

void ReconvergenceStack::push(const frontend::Program& program, uint32_t block, LaneMask mask,
                              uint32_t reconverge) {
  // A path that starts at the reconvergence block has nothing to run: its
  // lanes simply wait there in the entry below.
  if (mask == 0 || block == reconverge) return;
  entries_.push_back({block, block_start(program, block), mask, reconverge});
}

// An entry is finished when its lanes reached its reconvergence block, when
// they all left the kernel, or when none are left.
bool ReconvergenceStack::pop_finished() {
  bool popped = false;
  while (!entries_.empty()) {
    const auto& e = entries_.back();
    if (e.block != e.reconverge_block && e.block != kExitBlock && e.mask != 0) break;
    entries_.pop_back();
    popped = true;
  }
  return popped;
}

bool ReconvergenceStack::jump(const frontend::Program& program, uint32_t target) {
  auto& e = entries_.back();
  e.block = target;
  e.pc = block_start(program, target);
  return pop_finished();
}

void ReconvergenceStack::diverge(const frontend::Program& program, const std::vector<Path>& paths,
                                 uint32_t reconverge) {
  if (reconverge == entries_.back().reconverge_block) {
    // The current path already waits for its lanes at this block (a loop
    // iterating, a break): replace it rather than stacking one entry per trip.
    entries_.pop_back();
  } else {
    auto& e = entries_.back();
    e.block = reconverge;
    e.pc = block_start(program, reconverge);
  }
  // Pushed in reverse so the first path is on top and runs first.
  for (auto it = paths.rbegin(); it != paths.rend(); ++it) push(program, it->block, it->mask, reconverge);
  pop_finished();
}

void ReconvergenceStack::exit_lanes(LaneMask lanes) {
  for (auto& e : entries_) e.mask &= ~lanes;
  pop_finished();
}

}  // namespace lanelab::core
