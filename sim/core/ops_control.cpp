// Branches, phis, returns and barriers. Branch handlers hand the lane masks to
// the subgroup's reconvergence stack; OpPhi picks, per lane, the value that
// came from the block the lane arrived from.
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>

#include "sim/core/instruction_set.h"
#include "sim/core/lane_ops.h"

namespace lanelab::core {
namespace {

using frontend::Instruction;

void branch(Subgroup& sg, const Instruction& in) { sg.jump(in, sg.operand(in, 0)); }

void branch_conditional(Subgroup& sg, const Instruction& in) {
  const uint64_t* cond = sg.slot(sg.operand(in, 0));
  LaneMask taken = 0;
  for_each_lane(sg.active(), [&](uint32_t l) { taken |= LaneMask(cond[l] != 0) << l; });
  sg.branch(in, taken, sg.operand(in, 1), sg.operand(in, 2));
}

void switch_op(Subgroup& sg, const Instruction& in) {
  const uint64_t* selector = sg.slot(sg.operand(in, 0));
  const uint64_t width_mask = in.width_bits == 64 ? ~uint64_t(0) : 0xffffffffu;
  std::vector<ReconvergenceStack::Path> paths;
  for_each_lane(sg.active(), [&](uint32_t l) {
    uint32_t target = sg.operand(in, 1);
    for (uint32_t i = 2; i + 1 < in.operand_count; i += 2)
      if ((selector[l] & width_mask) == sg.operand(in, i)) {
        target = sg.operand(in, i + 1);
        break;
      }
    auto it = std::find_if(paths.begin(), paths.end(), [&](const auto& p) { return p.block == target; });
    if (it == paths.end()) paths.push_back({target, LaneMask(1) << l});
    else it->mask |= LaneMask(1) << l;
  });
  sg.branch_many(in, paths);
}

void return_op(Subgroup& sg, const Instruction& in) { sg.exit_lanes(in); }

void unreachable(Subgroup& sg, const Instruction& in) {
  sg.fail(in, "reached OpUnreachable with lanes " + lane_list(sg.active()));
}

// All phis at the top of a block take their values at once, from the values
// before any of them is written (a loop's phis may read each other).
void phi_group(Subgroup& sg, const Instruction& first) {
  const auto& program = sg.program();
  const uint32_t begin = uint32_t(&first - program.instructions.data());
  uint32_t end = begin;
  while (end < program.instructions.size() && program.instructions[end].opcode == uint16_t(spv::Op::OpPhi)) ++end;
  thread_local std::vector<uint64_t> staged;
  staged.clear();
  const LaneMask active = sg.active();
  for (uint32_t i = begin; i < end; ++i) {
    const Instruction& in = program.instructions[i];
    for (uint32_t c = 0; c < in.components; ++c)
      for (uint32_t l = 0; l < sg.width(); ++l) {
        uint64_t v = sg.slot(in.result_slot + c)[l];
        if (lane_in(active, l))
          for (uint32_t k = 0; k + 1 < in.operand_count; k += 2)
            if (sg.operand(in, k + 1) == sg.previous_block(l)) {
              v = sg.slot(sg.operand(in, k) + c)[l];
              break;
            }
        staged.push_back(v);
      }
  }
  size_t n = 0;
  for (uint32_t i = begin; i < end; ++i) {
    const Instruction& in = program.instructions[i];
    for (uint32_t c = 0; c < in.components; ++c)
      for (uint32_t l = 0; l < sg.width(); ++l) sg.slot(in.result_slot + c)[l] = staged[n++];
  }
  // Skip the rest of the group: they were evaluated together.
  for (uint32_t i = begin + 1; i < end; ++i) sg.advance();
}

// Scope values are SPIR-V's: 2 = Workgroup, 3 = Subgroup.
void control_barrier(Subgroup& sg, const Instruction& in) {
  if (sg.operand(in, 0) == uint32_t(spv::Scope::Workgroup)) sg.wait_at_barrier(in);
}

void memory_barrier(Subgroup&, const Instruction&) {}  // all memory is coherent in a functional model

}  // namespace

frontend::Handler control_handler(const frontend::Program&, const frontend::Instruction& in) {
  using spv::Op;
  switch (Op(in.opcode)) {
    case Op::OpBranch: return branch;
    case Op::OpBranchConditional: return branch_conditional;
    case Op::OpSwitch: return switch_op;
    case Op::OpReturn: return return_op;
    case Op::OpUnreachable: return unreachable;
    case Op::OpPhi: return phi_group;
    case Op::OpControlBarrier: return control_barrier;
    case Op::OpMemoryBarrier: case Op::OpNop: return memory_barrier;
    default: return nullptr;
  }
}

}  // namespace lanelab::core
