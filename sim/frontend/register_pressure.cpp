#include "sim/frontend/register_pressure.h"

#include <spirv/unified1/spirv.hpp11>

#include <spirv-tools/libspirv.h>
#include <unordered_map>

#include "sim/frontend/opcode_table.h"

namespace lanelab::frontend {
namespace {

// The function's instructions as (result id, used ids), grouped in blocks
// with their successors, read again from the words: the decoded Program keeps
// register slots, not the ids liveness is defined on.
struct LiveInstruction {
  uint32_t result = kNoId;
  uint32_t result_type = kNoId;
  std::vector<uint32_t> uses;
  std::vector<std::pair<uint32_t, uint32_t>> phi_incoming;  // (value, predecessor label)
  int line = 0;
};
struct LiveBlock {
  uint32_t label = kNoId;
  std::vector<LiveInstruction> instructions;
  std::vector<uint32_t> successors;  // labels
};

struct Collector {
  std::vector<LiveBlock> blocks;
  bool in_function = false;
  int line = 0;
};

spv_result_t collect(void* user, const spv_parsed_instruction_t* p) {
  auto* c = static_cast<Collector*>(user);
  const auto op = spv::Op(p->opcode);
  auto word = [&](uint16_t i) { return p->words[p->operands[i].offset]; };
  if (op == spv::Op::OpFunction) c->in_function = true;
  if (op == spv::Op::OpFunctionEnd) c->in_function = false;
  if (!c->in_function) return SPV_SUCCESS;
  if (op == spv::Op::OpLine) { c->line = int(word(1)); return SPV_SUCCESS; }
  if (op == spv::Op::OpLabel) { c->blocks.push_back({word(0), {}, {}}); return SPV_SUCCESS; }
  if (c->blocks.empty()) return SPV_SUCCESS;
  LiveBlock& b = c->blocks.back();
  LiveInstruction in;
  in.line = c->line;
  for (uint16_t i = 0; i < p->num_operands; ++i) {
    const auto type = p->operands[i].type;
    if (type == SPV_OPERAND_TYPE_RESULT_ID) in.result = word(i);
    else if (type == SPV_OPERAND_TYPE_TYPE_ID) in.result_type = word(i);
    else if (type == SPV_OPERAND_TYPE_ID) in.uses.push_back(word(i));
  }
  if (op == spv::Op::OpPhi) {
    for (size_t i = 0; i + 1 < in.uses.size(); i += 2) in.phi_incoming.push_back({in.uses[i], in.uses[i + 1]});
    in.uses.clear();
  }
  if (op == spv::Op::OpBranch) b.successors = {word(0)};
  if (op == spv::Op::OpBranchConditional) b.successors = {word(1), word(2)};
  if (op == spv::Op::OpSwitch)
    for (uint16_t i = 1; i < p->num_operands; i += 2) b.successors.push_back(word(i));
  b.instructions.push_back(std::move(in));
  return SPV_SUCCESS;
}

}  // namespace

RegisterEstimate estimate_registers(const Program& program) {
  Collector c;
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  const auto& words = program.module.words;
  spvBinaryParse(context, &c, words.data(), words.size(), nullptr, collect, nullptr);
  spvContextDestroy(context);

  // Registers a value needs: its scalar leaves, 64-bit ones twice. Constants
  // are immediates and variables are addresses: neither is counted.
  std::unordered_map<uint32_t, uint32_t> width;
  for (const auto& b : c.blocks)
    for (const auto& in : b.instructions) {
      if (in.result == kNoId || in.result_type == kNoId || in.result_type >= program.types.size()) continue;
      const Type& t = program.types[in.result_type];
      if (t.kind == Type::Kind::Pointer) continue;
      uint32_t scalar_bits = t.width_bits;
      if (t.kind == Type::Kind::Vector) scalar_bits = program.types[t.element].width_bits;
      width[in.result] = t.slots * (scalar_bits == 64 ? 2 : 1);
    }
  auto registers = [&](uint32_t id) {
    auto it = width.find(id);
    return it == width.end() ? 0u : it->second;
  };

  std::unordered_map<uint32_t, size_t> index;
  for (size_t i = 0; i < c.blocks.size(); ++i) index[c.blocks[i].label] = i;
  using LiveSet = std::unordered_map<uint32_t, bool>;
  std::vector<LiveSet> live_in(c.blocks.size()), live_out(c.blocks.size());
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t bi = c.blocks.size(); bi-- > 0;) {
      const LiveBlock& b = c.blocks[bi];
      LiveSet out;
      for (uint32_t s : b.successors) {
        auto it = index.find(s);
        if (it == index.end()) continue;
        for (const auto& [id, _] : live_in[it->second]) out[id] = true;
        // A phi's incoming value is live at the end of its predecessor only.
        for (const auto& in : c.blocks[it->second].instructions)
          for (const auto& [value, from] : in.phi_incoming)
            if (from == b.label && width.count(value)) out[value] = true;
      }
      LiveSet live = out;
      for (size_t i = b.instructions.size(); i-- > 0;) {
        const auto& in = b.instructions[i];
        live.erase(in.result);
        for (uint32_t u : in.uses)
          if (width.count(u)) live[u] = true;
      }
      if (live.size() != live_in[bi].size() || out.size() != live_out[bi].size()) changed = true;
      live_in[bi] = std::move(live);
      live_out[bi] = std::move(out);
    }
  }

  RegisterEstimate estimate;
  for (size_t bi = 0; bi < c.blocks.size(); ++bi) {
    const LiveBlock& b = c.blocks[bi];
    LiveSet live = live_out[bi];
    auto total = [&] {
      uint32_t sum = 0;
      for (const auto& [id, _] : live) sum += registers(id);
      return sum;
    };
    for (size_t i = b.instructions.size(); i-- > 0;) {
      const auto& in = b.instructions[i];
      live.erase(in.result);
      for (uint32_t u : in.uses)
        if (width.count(u)) live[u] = true;
      uint32_t now = total() + registers(in.result);
      if (now > estimate.peak_live_registers) {
        estimate.peak_live_registers = now;
        estimate.line_at_peak = in.line;
      }
    }
  }
  uint64_t private_bytes = 0;
  for (const auto& v : program.variables)
    if (v.memory == MemoryKind::Function || v.memory == MemoryKind::Private)
      private_bytes += program.type(v.type).size_bytes;
  estimate.private_registers = uint32_t((private_bytes + 3) / 4);
  return estimate;
}

}  // namespace lanelab::frontend
