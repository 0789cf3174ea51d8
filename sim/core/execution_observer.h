#pragma once
// The one narrow interface through which stepping, tracing, sanitizers and the
// timing model watch the executor. They never reach into its internals.
#include <cstdint>

#include "sim/core/lane_mask.h"
#include "sim/frontend/program.h"

namespace lanelab::core {

class Subgroup;

struct MemoryAccess {
  frontend::MemoryKind kind;
  bool is_store;
  bool is_atomic;
  uint32_t bytes_per_lane;
  LaneMask lanes;
  const uint64_t* addresses;   // per lane: byte address within its memory (shared: workgroup memory)
  uint32_t object;             // memory object index (which buffer)
};

enum class ControlEvent { Diverge, Reconverge, Exit, BarrierWait, BarrierRelease };

class ExecutionObserver {
 public:
  virtual ~ExecutionObserver() = default;
  // Before the instruction executes, with the lanes it executes on.
  virtual void on_instruction(const Subgroup&, const frontend::Instruction&, LaneMask) {}
  virtual void on_memory(const Subgroup&, const frontend::Instruction&, const MemoryAccess&) {}
  virtual void on_control(const Subgroup&, const frontend::Instruction&, ControlEvent, LaneMask) {}
};

}  // namespace lanelab::core
