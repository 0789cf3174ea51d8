#pragma once
// The scoreboard of one subgroup: the cycle at which each register slot's
// value is ready. An instruction may issue once every slot it reads is ready;
// issuing it marks its result slots ready after the latency of its class.
// ProgramTiming lists, once per program, which slots each instruction reads
// and writes, and its class.
#include <cstdint>
#include <vector>

#include "sim/frontend/program.h"
#include "sim/timing/instruction_fusion.h"

namespace lanelab::timing {

// What a subgroup reduction or scan (OpGroupNonUniformIAdd ... LogicalXor)
// issues as: a butterfly, per halving of the lanes a shuffle, a select and
// the operation (floats, scans, 64-bit values; compute_unit.cpp), or, a
// 32-bit integer reduction, one instruction on a device that has it
// (latency_cycles.subgroup_reduce).
enum class SubgroupArithmetic : uint8_t { None, Butterfly, IntegerReduce };

struct InstructionTiming {
  static constexpr uint32_t kNoSlot = ~0u;
  frontend::InstrClass klass = frontend::InstrClass::Other;
  bool free = false;             // costs no issue slot (access chains, phis, merges, fused: instruction_fusion.h)
  uint32_t arrives_with = kNoSlot;  // a folded load: its value is ready with this slot's
  // A flattened side's load: only the lanes whose `predicate` slot is
  // `predicate_when` read (the others read element 0 where the device reads nothing).
  uint32_t predicate = kNoSlot;
  bool predicate_when = true;
  uint8_t elements = 1;          // a widened shared load: 32-bit elements per lane
  uint8_t issues = 1;            // GPU instructions issued for it (a division: a sequence)
  // A load or store that reads or writes registers (pointer_classes): a
  // private vector's component at a run-time index (a compiler keeps the
  // vector in registers and picks the component with selects), a push
  // constant, a builtin, a uniform. It costs an integer operation.
  bool in_registers = false;
  bool multiplies = false;       // an integer multiply(-add): latency_cycles.int_multiply
  bool adds_then_min_max = false;  // a fused add-min or add-max: latency_cycles.add_min_max
  bool sets_predicate = false;     // a compare predicating a memory access: latency_cycles.predicate
  // A read of a constant array (constant_array_pointers): through the
  // constant cache, a line's first read on a compute unit waits for memory,
  // later ones the local-memory latency.
  bool constant_bank = false;
  // A global access: the workgroup-ID dimensions its address depends on
  // (workgroup_dependence.h).
  uint8_t address_dependence = 0;
  SubgroupArithmetic subgroup_arithmetic = SubgroupArithmetic::None;
  bool float_steps = false;  // a butterfly's operation is a float one (its latency: latency_cycles.float)
  uint32_t result_begin = 0, result_count = 0;
  uint32_t reads_begin = 0, reads_count = 0;  // into ProgramTiming::reads
};

// Decoded once per program. Operands are resolved slots or literals and the
// decoded form does not say which: an operand below slot_count is taken as a
// slot (a literal that happens to name a pending slot only delays issue).
struct ProgramTiming {
  explicit ProgramTiming(const frontend::Program& program, const CompilerTraits& traits = {});
  const frontend::Program* program;
  std::vector<InstructionTiming> instructions;
  std::vector<uint32_t> reads;
};

class Scoreboard {
 public:
  explicit Scoreboard(uint32_t slots) : ready_(slots, 0), from_memory_(slots, 0) {}
  // The first cycle at which all the slots the instruction reads are ready.
  uint64_t operands_ready(const ProgramTiming& timing, const InstructionTiming& in) const {
    uint64_t t = 0;
    for (uint32_t i = 0; i < in.reads_count; ++i) {
      const uint64_t r = ready_[timing.reads[in.reads_begin + i]];
      t = r > t ? r : t;
    }
    return t;
  }
  uint64_t ready_at(uint32_t slot) const { return ready_[slot]; }
  // Whether the latest operand came from memory (for stall attribution).
  bool waits_on_memory(const ProgramTiming& timing, const InstructionTiming& in, uint64_t now) const {
    for (uint32_t i = 0; i < in.reads_count; ++i) {
      const uint32_t s = timing.reads[in.reads_begin + i];
      if (ready_[s] > now && from_memory_[s]) return true;
    }
    return false;
  }
  void set_ready(const InstructionTiming& in, uint64_t cycle, bool from_memory) {
    for (uint32_t i = 0; i < in.result_count; ++i) {
      ready_[in.result_begin + i] = cycle;
      from_memory_[in.result_begin + i] = from_memory;
    }
  }

 private:
  std::vector<uint64_t> ready_;
  std::vector<uint8_t> from_memory_;
};

}  // namespace lanelab::timing
