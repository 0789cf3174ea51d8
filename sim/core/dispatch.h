#pragma once
// A dispatch of workgroups over one decoded program: the bound memory, the
// subgroup width, and the limits. run_dispatch executes it functionally,
// workgroup by workgroup (each workgroup's subgroups interleave at barriers).
#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/execution_observer.h"
#include "sim/frontend/program.h"
#include "sim/memory/memory_object.h"

namespace lanelab::core {

struct DispatchContext {
  const frontend::Program* program = nullptr;
  uint32_t subgroup_width = 32;
  std::array<uint32_t, 3> workgroups = {1, 1, 1};
  // One entry per program variable (same index): buffers and push constants
  // bound here; shared and private entries carry only their layout.
  std::vector<memory::MemoryObject> objects;
  ExecutionObserver* observer = nullptr;
  uint64_t max_steps_per_subgroup = 100'000'000;  // runaway-loop guard (--max-steps)

  uint32_t workgroup_size() const {
    return program->local_size[0] * program->local_size[1] * program->local_size[2];
  }
  uint32_t subgroups_per_workgroup() const { return (workgroup_size() + subgroup_width - 1) / subgroup_width; }
};

// A buffer the host binds: a descriptor (set, binding) or the push-constant block.
struct BoundBuffer {
  bool push_constant = false;
  uint32_t set = 0, binding = 0;
  uint8_t* data = nullptr;
  uint64_t size_bytes = 0;
  std::string name;
};

// Builds the memory-object table; throws naming a variable the host left unbound.
DispatchContext make_dispatch(const frontend::Program& program, uint32_t subgroup_width,
                              std::array<uint32_t, 3> workgroups, const std::vector<BoundBuffer>& buffers);

void run_dispatch(const DispatchContext& dispatch);

}  // namespace lanelab::core
