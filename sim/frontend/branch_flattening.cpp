#include "sim/frontend/branch_flattening.h"

#include <algorithm>
#include <optional>
#include <spirv/unified1/spirv.hpp11>
#include <unordered_map>
#include <unordered_set>

#include "sim/frontend/spirv_words.h"

namespace lanelab::frontend {
namespace {

using Instruction = WordInstruction;

bool is_debug_line(spv::Op op) { return op == spv::Op::OpLine || op == spv::Op::OpNoLine; }

struct Block {
  std::vector<Instruction> instructions;  // OpLabel first, the terminator last
  bool removed = false;
  uint32_t label() const { return instructions.front()[1]; }
};

class FunctionFlattener {
 public:
  FunctionFlattener(std::vector<Block>& blocks, const std::unordered_set<uint32_t>& scalar_types,
                    uint32_t max_side_instructions)
      : blocks_(blocks), scalar_types_(scalar_types), max_side_(max_side_instructions) {}

  // Flattens until nothing more can be: flattening an inner selection can
  // make its enclosing one short enough.
  uint32_t run(std::unordered_set<uint32_t>& removed_labels) {
    uint32_t flattened = 0;
    for (bool changed = true; changed;) {
      changed = false;
      analyse();
      std::unordered_set<uint32_t> touched;
      for (Block& header : blocks_)
        if (!header.removed && !touched.count(header.label()) && flatten(header, touched, removed_labels)) {
          ++flattened;
          changed = true;
        }
    }
    return flattened;
  }

 private:
  void analyse() {
    index_.clear();
    predecessors_.clear();
    structural_.clear();
    for (size_t i = 0; i < blocks_.size(); ++i) {
      if (blocks_[i].removed) continue;
      index_[blocks_[i].label()] = i;
      for (uint32_t s : terminator_successors(blocks_[i].instructions.back())) predecessors_[s].push_back(blocks_[i].label());
      for (const Instruction& in : blocks_[i].instructions) {
        if (op_of(in) == spv::Op::OpLoopMerge) structural_.insert({in[1], in[2]});
        if (op_of(in) == spv::Op::OpSelectionMerge) structural_.insert(in[1]);
      }
    }
  }

  Block* block(uint32_t label) {
    auto it = index_.find(label);
    return it == index_.end() ? nullptr : &blocks_[it->second];
  }

  // The instructions of a side that may be predicated (nothing for the
  // merge block itself: the side is empty); nullopt when it may not.
  std::optional<std::vector<Instruction>> side_body(uint32_t side, uint32_t header, uint32_t merge, bool forced,
                                                    const std::unordered_set<uint32_t>& touched) {
    if (side == merge) return std::vector<Instruction>{};
    Block* b = block(side);
    if (!b || touched.count(side) || structural_.count(side)) return std::nullopt;
    if (predecessors_[side] != std::vector<uint32_t>{header}) return std::nullopt;
    const Instruction& t = b->instructions.back();
    if (op_of(t) != spv::Op::OpBranch || t[1] != merge) return std::nullopt;
    std::vector<Instruction> body(b->instructions.begin() + 1, b->instructions.end() - 1);
    uint32_t counted = 0;
    for (const Instruction& in : body) {
      if (is_debug_line(op_of(in))) continue;
      if (!only_computes(in)) return std::nullopt;
      ++counted;
    }
    if (!forced && counted > max_side_) return std::nullopt;
    return body;
  }

  bool flatten(Block& header, std::unordered_set<uint32_t>& touched, std::unordered_set<uint32_t>& removed_labels) {
    std::vector<Instruction>& hi = header.instructions;
    if (hi.size() < 3) return false;
    const Instruction branch = hi.back(), selection = hi[hi.size() - 2];
    if (op_of(branch) != spv::Op::OpBranchConditional || op_of(selection) != spv::Op::OpSelectionMerge) return false;
    const uint32_t control = selection[2];
    if (control & uint32_t(spv::SelectionControlMask::DontFlatten)) return false;
    const bool forced = control & uint32_t(spv::SelectionControlMask::Flatten);
    const uint32_t h = header.label(), merge = selection[1], condition = branch[1], t = branch[2], f = branch[3];
    if (t == f) return false;
    auto then_body = side_body(t, h, merge, forced, touched);
    auto else_body = side_body(f, h, merge, forced, touched);
    if (!then_body || !else_body) return false;

    // The merge is reached from the two sides only; its phis choose between them.
    Block* m = block(merge);
    if (!m || touched.count(merge)) return false;
    const uint32_t from_then = t == merge ? h : t, from_else = f == merge ? h : f;
    std::vector<uint32_t> expected{from_then, from_else}, preds = predecessors_[merge];
    std::sort(expected.begin(), expected.end());
    std::sort(preds.begin(), preds.end());
    if (preds != expected) return false;
    std::vector<std::pair<size_t, Instruction>> selects;
    for (size_t k = 1; k < m->instructions.size(); ++k) {
      const Instruction& in = m->instructions[k];
      if (is_debug_line(op_of(in))) continue;
      if (op_of(in) != spv::Op::OpPhi) break;
      // result type, result, then (value, parent) pairs
      if (in.size() != 7 || !scalar_types_.count(in[1])) return false;
      const uint32_t then_value = in[4] == from_then ? in[3] : in[5];
      const uint32_t else_value = in[4] == from_else ? in[3] : in[5];
      selects.emplace_back(k, make_instruction(spv::Op::OpSelect, {in[1], in[2], condition, then_value, else_value}));
    }

    hi.resize(hi.size() - 2);
    hi.insert(hi.end(), then_body->begin(), then_body->end());
    hi.insert(hi.end(), else_body->begin(), else_body->end());
    hi.push_back(make_instruction(spv::Op::OpBranch, {merge}));
    for (auto& [k, select] : selects) m->instructions[k] = std::move(select);
    for (uint32_t side : {t, f})
      if (side != merge) {
        block(side)->removed = true;
        removed_labels.insert(side);
      }
    touched.insert({h, t, f, merge});
    return true;
  }

  std::vector<Block>& blocks_;
  const std::unordered_set<uint32_t>& scalar_types_;
  uint32_t max_side_;
  std::unordered_map<uint32_t, size_t> index_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> predecessors_;
  std::unordered_set<uint32_t> structural_;  // merge and continue targets of other constructs
};

}  // namespace

FlatteningResult flatten_short_branches(const std::vector<uint32_t>& words, uint32_t max_side_instructions) {
  return rewrite_module<FlatteningResult>(
      words, [&](const std::vector<WordInstruction>& module, FlatteningResult& result) {
    std::unordered_set<uint32_t> scalar_types;
    for (const Instruction& in : module)
      if (op_of(in) == spv::Op::OpTypeInt || op_of(in) == spv::Op::OpTypeFloat || op_of(in) == spv::Op::OpTypeBool)
        scalar_types.insert(in[1]);

    // Rebuild the module function by function, each as its blocks.
    std::vector<Instruction> out;
    std::unordered_set<uint32_t> removed_labels;
    for (size_t i = 0; i < module.size();) {
      if (op_of(module[i]) != spv::Op::OpFunction) {
        out.push_back(module[i++]);
        continue;
      }
      while (i < module.size() && op_of(module[i]) != spv::Op::OpLabel && op_of(module[i]) != spv::Op::OpFunctionEnd)
        out.push_back(module[i++]);  // OpFunction, its parameters
      std::vector<Block> blocks;
      while (i < module.size() && op_of(module[i]) != spv::Op::OpFunctionEnd) {
        if (op_of(module[i]) == spv::Op::OpLabel) blocks.emplace_back();
        blocks.back().instructions.push_back(module[i++]);
      }
      result.flattened += FunctionFlattener(blocks, scalar_types, max_side_instructions).run(removed_labels);
      for (Block& b : blocks)
        if (!b.removed) out.insert(out.end(), b.instructions.begin(), b.instructions.end());
    }

    result.words.assign(words.begin(), words.begin() + 5);
    for (const Instruction& in : out) {
      // Names and decorations of the labels that went with their blocks.
      const spv::Op op = op_of(in);
      if ((op == spv::Op::OpName || op == spv::Op::OpDecorate) && in.size() > 1 && removed_labels.count(in[1])) continue;
      result.words.insert(result.words.end(), in.begin(), in.end());
    }
  });
}

}  // namespace lanelab::frontend
