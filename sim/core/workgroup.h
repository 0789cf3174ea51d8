#pragma once
// One workgroup: its subgroups, its shared memory, and the memory-object table
// its pointers index. Subgroups run until they block at a barrier or finish;
// a barrier releases when every live subgroup waits at the same barrier with
// all of its lanes, and anything else is a divergent barrier.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/subgroup.h"
#include "sim/memory/memory_object.h"

namespace lanelab::core {

struct DispatchContext;

class Workgroup {
 public:
  Workgroup(const DispatchContext& dispatch, std::array<uint32_t, 3> id);

  // Functional execution: runs every subgroup to completion. Returns the
  // subgroup instructions executed (what the timing model weighs a
  // workgroup's work by where it does not simulate it).
  uint64_t run();
  // Runs one step of subgroup `s` and resolves barriers afterwards (stepping
  // and timing drive the workgroup through this).
  void step_subgroup(uint32_t s);
  bool done() const;
  // Releases a barrier at which all live subgroups wait; throws on a divergent one.
  bool resolve_barrier();

  const DispatchContext& dispatch() const { return *dispatch_; }
  const frontend::Program& program() const;
  std::array<uint32_t, 3> id() const { return id_; }
  uint32_t linear_id() const;
  std::vector<std::unique_ptr<Subgroup>>& subgroups() { return subgroups_; }
  const std::vector<std::unique_ptr<Subgroup>>& subgroups() const { return subgroups_; }
  std::vector<memory::MemoryObject>& objects() { return objects_; }
  const std::vector<memory::MemoryObject>& objects() const { return objects_; }
  uint8_t* shared_memory() { return shared_memory_.data(); }

 private:
  const DispatchContext* dispatch_;
  std::array<uint32_t, 3> id_;
  std::vector<uint8_t> shared_memory_;
  std::vector<memory::MemoryObject> objects_;
  std::vector<std::unique_ptr<Subgroup>> subgroups_;
};

}  // namespace lanelab::core
