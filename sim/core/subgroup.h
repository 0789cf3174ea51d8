#pragma once
// One subgroup (warp, wavefront): W lanes sharing one PC. Register values are
// stored structure-of-arrays, value[slot][lane], and every instruction is
// applied to all active lanes at once under the mask of the reconvergence
// stack's top entry.
#include <cstdint>
#include <vector>

#include "sim/core/execution_observer.h"
#include "sim/core/lane_mask.h"
#include "sim/core/reconvergence_stack.h"
#include "sim/frontend/program.h"
#include "sim/memory/memory_object.h"

namespace lanelab::core {

class Workgroup;

class Subgroup {
 public:
  enum class State { Ready, AtBarrier, Done };

  Subgroup(Workgroup& workgroup, uint32_t index, uint32_t width, uint32_t first_local_index, LaneMask lanes);
  ~Subgroup();
  Subgroup(Subgroup&&) = default;
  Subgroup& operator=(Subgroup&&) = default;

  // Executes the next instruction for the active lanes.
  void step();

  const frontend::Program& program() const { return *program_; }
  Workgroup& workgroup() { return *workgroup_; }
  const Workgroup& workgroup() const { return *workgroup_; }
  uint32_t index() const { return index_; }
  uint32_t width() const { return width_; }
  State state() const { return state_; }
  void release_from_barrier() { state_ = State::Ready; }
  LaneMask active() const { return stack_.empty() ? 0 : stack_.top().mask; }
  LaneMask live_lanes() const { return lanes_ & ~exited_; }   // existing and not returned
  LaneMask lanes() const { return lanes_; }
  uint32_t pc() const { return stack_.empty() ? 0 : stack_.top().pc; }
  const ReconvergenceStack& stack() const { return stack_; }
  uint64_t steps() const { return steps_; }
  uint32_t barrier_pc() const { return barrier_pc_; }
  uint32_t local_index(uint32_t lane) const { return first_local_index_ + lane; }

  // Registers: `slot(s)[lane]`.
  uint64_t* slot(uint32_t s) { return &registers_[size_t(s) * width_]; }
  const uint64_t* slot(uint32_t s) const { return &registers_[size_t(s) * width_]; }
  uint64_t value(uint32_t s, uint32_t lane) const { return registers_[size_t(s) * width_ + lane]; }

  // Resolved operand i of an instruction (a slot or a literal).
  uint32_t operand(const frontend::Instruction& in, uint32_t i) const {
    return program_->operands[in.operand_begin + i];
  }

  // Memory: a host pointer for `bytes` at pointer register value p in `lane`;
  // throws an out-of-bounds Error placed at the instruction.
  uint8_t* address(const frontend::Instruction& in, uint64_t pointer, uint32_t lane, uint64_t bytes,
                   bool is_store);
  // Byte address for observers (shared: offset in workgroup memory).
  uint64_t observed_address(uint64_t pointer) const;
  const memory::MemoryObject& object(uint32_t index) const;

  // Control flow, used by the branch handlers.
  void jump(const frontend::Instruction& in, uint32_t target_block);
  void branch(const frontend::Instruction& in, LaneMask taken, uint32_t target_true, uint32_t target_false);
  // Multi-way (OpSwitch): lanes grouped by target block.
  void branch_many(const frontend::Instruction& in, const std::vector<ReconvergenceStack::Path>& paths);
  void exit_lanes(const frontend::Instruction& in);
  void wait_at_barrier(const frontend::Instruction& in);
  void advance() { ++stack_.top().pc; }

  // Per-lane block the lane came from (OpPhi).
  uint32_t previous_block(uint32_t lane) const { return previous_block_[lane]; }

  ExecutionObserver* observer() const;
  [[noreturn]] void fail(const frontend::Instruction& in, const std::string& message,
                         std::optional<uint32_t> lane = {}) const;

 private:
  void initialize_private_memory();
  void record_previous_block(uint32_t block);

  Workgroup* workgroup_;
  const frontend::Program* program_;
  uint32_t index_;
  uint32_t width_;
  uint32_t first_local_index_;
  LaneMask lanes_;
  LaneMask exited_ = 0;
  State state_ = State::Ready;
  uint32_t barrier_pc_ = 0;
  uint64_t steps_ = 0;
  ReconvergenceStack stack_;
  std::vector<uint64_t> registers_;
  std::vector<uint8_t> private_memory_;
  uint32_t previous_block_[64] = {};
};

}  // namespace lanelab::core
