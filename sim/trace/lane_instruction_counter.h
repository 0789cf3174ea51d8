#pragma once
// Counts what the functional simulator executed, through the observer
// interface: one subgroup instruction per issue, and one lane-instruction per
// active lane of that issue (popcount of the execution mask). Their ratio is
// the SIMD efficiency the divergence lecture talks about.
#include <cstdint>

#include "sim/core/execution_observer.h"

namespace lanelab::trace {

class LaneInstructionCounter : public core::ExecutionObserver {
 public:
  void on_instruction(const core::Subgroup&, const frontend::Instruction&, core::LaneMask lanes) override {
    ++subgroup_instructions;
    lane_instructions += core::lane_count(lanes);
  }

  uint64_t subgroup_instructions = 0;
  uint64_t lane_instructions = 0;
};

}  // namespace lanelab::trace
