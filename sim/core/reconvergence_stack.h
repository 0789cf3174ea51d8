#pragma once
// The SIMT reconvergence stack of one subgroup. The top entry says which block
// runs next and with which lanes. A divergent branch turns the top entry into
// "wait at the reconvergence block" and pushes one entry per path; a path's
// entry is popped when it arrives at that block, so both paths run one after
// the other and the lanes continue together from the immediate post-dominator.
#include <cstdint>
#include <vector>

#include "sim/core/lane_mask.h"
#include "sim/frontend/program.h"

namespace lanelab::core {

struct ReconvergenceEntry {
  uint32_t block;              // block the entry runs (or waits at)
  uint32_t pc;                 // next instruction within the program
  LaneMask mask;               // lanes of this path
  uint32_t reconverge_block;   // where this path ends (kExitBlock for the whole kernel)
};

class ReconvergenceStack {
 public:
  void reset(uint32_t entry_block, uint32_t pc, LaneMask lanes);
  bool empty() const { return entries_.empty(); }
  ReconvergenceEntry& top() { return entries_.back(); }
  const ReconvergenceEntry& top() const { return entries_.back(); }
  const std::vector<ReconvergenceEntry>& entries() const { return entries_; }
  size_t depth() const { return entries_.size(); }

  // All active lanes go to `target`. Returns true when that reconverged a path.
  bool jump(const frontend::Program& program, uint32_t target);
  // Lanes split over several targets (a conditional branch or a switch),
  // reconverging at `reconverge`. Paths run in the order given.
  struct Path {
    uint32_t block;
    LaneMask mask;
  };
  void diverge(const frontend::Program& program, const std::vector<Path>& paths, uint32_t reconverge);
  // Lanes leave the kernel (OpReturn): they are removed from every entry.
  void exit_lanes(LaneMask lanes);

 private:
  void push(const frontend::Program& program, uint32_t block, LaneMask mask, uint32_t reconverge);
  bool pop_finished();
  std::vector<ReconvergenceEntry> entries_;
};

}  // namespace lanelab::core
