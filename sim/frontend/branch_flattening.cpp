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

// What the flattener needs to know of the module's declarations.
struct ModuleFacts {
  std::unordered_set<uint32_t> scalar_types;
  std::unordered_set<uint32_t> shared_variables;           // Workgroup variables
  std::unordered_set<uint32_t> shared_pointers;            // results of type pointer-to-Workgroup
  std::unordered_map<uint32_t, Instruction> shared_chains;  // access chains into Workgroup variables, by result
  std::unordered_set<uint32_t> buffer_variables;  // StorageBuffer and Uniform variables (storage and uniform blocks)
  std::unordered_set<uint32_t> buffer_pointers;   // results of type pointer-to-StorageBuffer or -Uniform
  std::unordered_set<uint32_t> constants;
  std::unordered_map<uint32_t, uint32_t> zero_of_int_type;  // integer type -> its constant 0
  std::unordered_map<uint32_t, uint32_t> type_of;           // result -> its type
  uint32_t next_id = 0;                                     // the module's id bound, then new ids
};

struct Block {
  std::vector<Instruction> instructions;  // OpLabel first, the terminator last
  bool removed = false;
  uint32_t label() const { return instructions.front()[1]; }
};

class FunctionFlattener {
 public:
  FunctionFlattener(std::vector<Block>& blocks, ModuleFacts& module, uint32_t max_side_instructions)
      : blocks_(blocks), module_(module), max_side_(max_side_instructions) {}

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
        if (op_of(in) == spv::Op::OpLoopMerge) {
          ++structural_[in[1]];
          ++structural_[in[2]];
        }
        if (op_of(in) == spv::Op::OpSelectionMerge) ++structural_[in[1]];
      }
    }
  }

  Block* block(uint32_t label) {
    auto it = index_.find(label);
    return it == index_.end() ? nullptr : &blocks_[it->second];
  }

  // The shared-memory words the header reads after its last write, barrier
  // or call: pointer -> (loaded value, its type). A side may store to one of
  // them: predicated, the store writes back the value read where the
  // condition fails, which no other invocation can tell from no store (one
  // that wrote the word in between would race with the header's read).
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> rewritable_words(const Block& header) const {
    std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> words;
    for (size_t k = header.instructions.size() - 2; k-- > 1;) {
      const Instruction& in = header.instructions[k];
      const spv::Op op = op_of(in);
      if (op == spv::Op::OpLoad) {
        if (module_.shared_pointers.count(in[3])) words.emplace(in[3], std::make_pair(in[2], in[1]));
      } else if (!is_debug_line(op) && !only_computes(in) && !is_access_chain(op)) {
        break;
      }
    }
    return words;
  }

  // The shared-memory pointers the header block reads or writes through:
  // in bounds on every lane that reaches the selection.
  static std::unordered_set<uint32_t> dereferenced(const Block& header) {
    std::unordered_set<uint32_t> pointers;
    for (const Instruction& in : header.instructions) {
      if (op_of(in) == spv::Op::OpLoad && in.size() >= 4) pointers.insert(in[3]);
      if (op_of(in) == spv::Op::OpStore && in.size() >= 3) pointers.insert(in[1]);
    }
    return pointers;
  }

  // The instructions of a side that may be predicated (nothing for the
  // merge block itself: the side is empty); nullopt when it may not. The
  // header's own merge block may be a side (`selection_merge`: the early
  // exit form, see flatten) when no other construct names it.
  std::optional<std::vector<Instruction>> side_body(uint32_t side, uint32_t header, uint32_t merge,
                                                    uint32_t selection_merge, bool forced,
                                                    const std::unordered_set<uint32_t>& touched,
                                                    const std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>>& rewritable,
                                                    const std::unordered_set<uint32_t>& header_pointers) {
    if (side == merge) return std::vector<Instruction>{};
    Block* b = block(side);
    auto named = structural_.find(side);
    const int names = named == structural_.end() ? 0 : named->second;
    if (!b || touched.count(side) || names > (side == selection_merge ? 1 : 0)) return std::nullopt;
    if (predecessors_[side] != std::vector<uint32_t>{header}) return std::nullopt;
    const Instruction& t = b->instructions.back();
    if (op_of(t) != spv::Op::OpBranch || t[1] != merge) return std::nullopt;
    std::vector<Instruction> body(b->instructions.begin() + 1, b->instructions.end() - 1);
    std::unordered_set<uint32_t> guarded_chains;  // this side's chains into shared variables
    std::unordered_set<uint32_t> side_read;       // shared words this side has read, nothing stored since
    uint32_t counted = 0;
    const std::unordered_set<uint32_t> addresses = address_arithmetic(body);
    for (const Instruction& in : body) {
      const spv::Op op = op_of(in);
      if (is_debug_line(op)) continue;
      if (guarded_memory_chain(in)) {
        // Free: a compiler folds the address into the load.
        if (!guardable(in)) return std::nullopt;
        guarded_chains.insert(in[2]);
        continue;
      }
      const bool shared_load = op == spv::Op::OpLoad && in.size() == 4 && module_.shared_pointers.count(in[3]) &&
                               (guarded_chains.count(in[3]) || header_pointers.count(in[3]) ||
                                outer_chain(in[3], header_pointers));
      // A storage or uniform buffer's element read through the side's own
      // chain: ptxas predicates the luminance shaders' `if (x < width && y
      // < height) l = dot(pixels[y * width + x], lum)`, every fetch's LDG
      // issued before the first use (validate/data/sass/luminance.sass).
      const bool buffer_load = op == spv::Op::OpLoad && in.size() == 4 && module_.buffer_pointers.count(in[3]) &&
                               guarded_chains.count(in[3]);
      const bool predicable_load = shared_load || buffer_load;
      const bool predicable_store =
          op == spv::Op::OpStore && in.size() == 3 &&
          ((rewritable.count(in[1]) && module_.scalar_types.count(rewritable.at(in[1]).second)) ||
           side_read.count(in[1]));
      if (!only_computes(in) && !predicable_load && !predicable_store) return std::nullopt;
      if (shared_load && module_.scalar_types.count(in[1])) side_read.insert(in[3]);
      if (op == spv::Op::OpStore) side_read.clear();
      // Index arithmetic that only addresses the side's loads is not counted:
      // the driver folds it into their addresses (`LDS [R+imm]`) and
      // predicates such sides, the reductions' `sdata[tid] += sdata[tid + s]`
      // (validate/data/sass/driver-2026-11-27-reduce/) and APSP phase 2's
      // pivot_row if/else, each side's loads issued under @P or @!P
      // (validate/data/sass/driver-2026-11-26/apsp-*/phase2.sass).
      if (!addresses.count(in[2])) ++counted;
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
    const uint32_t h = header.label(), selection_merge = selection[1], condition = branch[1], t = branch[2],
                   f = branch[3];
    if (t == f) return false;
    // The early exit a function's `if (c) return x; ...` becomes once
    // inlined (merge-return): one side leaves for the enclosing construct's
    // merge, the selection's own merge block is the rest, which leaves for
    // it too. That is an if/else whose merge is the enclosing one, and the
    // merge block its other side.
    uint32_t merge = selection_merge;
    const uint32_t exit_side = t == selection_merge ? f : f == selection_merge ? t : 0;
    if (exit_side) {
      const Block *e = block(exit_side), *rest = block(selection_merge);
      if (e && rest && op_of(e->instructions.back()) == spv::Op::OpBranch &&
          op_of(rest->instructions.back()) == spv::Op::OpBranch &&
          e->instructions.back()[1] == rest->instructions.back()[1] &&
          e->instructions.back()[1] != selection_merge)
        merge = e->instructions.back()[1];
    }
    const auto rewritable = rewritable_words(header);
    const auto header_pointers = dereferenced(header);
    auto then_body = side_body(t, h, merge, selection_merge, forced, touched, rewritable, header_pointers);
    auto else_body = side_body(f, h, merge, selection_merge, forced, touched, rewritable, header_pointers);
    if (!then_body || !else_body) return false;
    // Both sides storing, the second side's write-back would undo the first's.
    auto stores = [](const std::vector<Instruction>& body) {
      return std::any_of(body.begin(), body.end(), [](const Instruction& in) { return op_of(in) == spv::Op::OpStore; });
    };
    if (stores(*then_body) && stores(*else_body)) return false;

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
      if (in.size() != 7 || !module_.scalar_types.count(in[1])) return false;
      const uint32_t then_value = in[4] == from_then ? in[3] : in[5];
      const uint32_t else_value = in[4] == from_else ? in[3] : in[5];
      selects.emplace_back(k, make_instruction(spv::Op::OpSelect, {in[1], in[2], condition, then_value, else_value}));
    }

    hi.resize(hi.size() - 2);
    append_predicated(hi, *then_body, condition, true, rewritable, header_pointers);
    append_predicated(hi, *else_body, condition, false, rewritable, header_pointers);
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

  // An access chain into a shared variable or a storage or uniform buffer:
  // the chains a side may read through, its run-time indices guarded.
  bool guarded_memory_chain(const Instruction& in) const {
    return is_access_chain(op_of(in)) && in.size() > 3 &&
           (module_.shared_variables.count(in[3]) || module_.buffer_variables.count(in[3]));
  }

  // A chain into shared memory made before the selection (a side reads
  // through it), which the side can guard with a copy of its own.
  bool outer_chain(uint32_t pointer, const std::unordered_set<uint32_t>& header_pointers) const {
    auto chain = module_.shared_chains.find(pointer);
    return !header_pointers.count(pointer) && chain != module_.shared_chains.end() && guardable(chain->second);
  }

  // The integer arithmetic of a side used only as the run-time index of the
  // side's chains into shared memory (`tid + s`, `row * BF + k`), or only by
  // such arithmetic, which a compiler folds into the load's address: the
  // driver's IMAD and LEA compute an address, not an index and then an
  // address (APSP phase 2's first cell of a row, `tile_b[row * BF + k]`, is
  // predicated like the others: validate/data/sass/driver-2026-11-26/
  // apsp-64-16x16/phase2.sass). Found from the side's last instruction
  // back, as each use comes after what it uses.
  static std::unordered_set<uint32_t> address_arithmetic(const std::vector<Instruction>& body) {
    std::unordered_map<uint32_t, std::vector<std::pair<size_t, size_t>>> uses;  // value: (instruction, word)
    for (size_t i = 0; i < body.size(); ++i)
      for (size_t k = result_word(body[i]) + 1; k < body[i].size(); ++k) uses[body[i][k]].emplace_back(i, k);
    std::unordered_set<uint32_t> addresses;
    for (size_t i = body.size(); i-- > 0;) {
      const Instruction& in = body[i];
      const spv::Op op = op_of(in);
      const bool integer_step = op == spv::Op::OpIAdd || op == spv::Op::OpISub || op == spv::Op::OpIMul ||
                                op == spv::Op::OpShiftLeftLogical;
      if (!integer_step || in.size() != 5) continue;
      auto used = uses.find(in[2]);
      if (used == uses.end()) continue;
      const bool only_addresses = std::all_of(used->second.begin(), used->second.end(), [&](auto use) {
        const Instruction& user = body[use.first];
        const size_t result = result_word(user);
        return (is_access_chain(op_of(user)) && use.second >= 4) || (result && addresses.count(user[result]));
      });
      if (only_addresses) addresses.insert(in[2]);
    }
    return addresses;
  }

  // An access chain whose every run-time index has a 0 of its type to stand
  // in for it.
  bool guardable(const Instruction& chain) const {
    for (size_t k = 4; k < chain.size(); ++k) {
      if (module_.constants.count(chain[k])) continue;
      auto type = module_.type_of.find(chain[k]);
      if (type == module_.type_of.end() || !module_.zero_of_int_type.count(type->second)) return false;
    }
    return true;
  }

  // A side's instructions as every lane runs them. A shared-memory load
  // reads element 0 where the side is not taken (its index is selected:
  // index if taken, else 0), so it stays in bounds, and its value is
  // dropped by the merge's select: the predicated load of a vendor
  // compiler, which issues whether or not a lane takes the side. A store
  // keeps the word it would not have written: store (taken ? value : the
  // header's read).
  void append_predicated(std::vector<Instruction>& out, const std::vector<Instruction>& body, uint32_t condition,
                         bool taken, const std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>>& rewritable,
                         const std::unordered_set<uint32_t>& header_pointers) {
    auto select = [&](uint32_t type, uint32_t if_taken, uint32_t otherwise) {
      const uint32_t id = module_.next_id++;
      out.push_back(make_instruction(spv::Op::OpSelect, {type, id, condition, taken ? if_taken : otherwise,
                                                         taken ? otherwise : if_taken}));
      return id;
    };
    auto guard = [&](const Instruction& chain, uint32_t result) {
      Instruction guarded = chain;
      guarded[2] = result;
      for (size_t k = 4; k < chain.size(); ++k)
        if (!module_.constants.count(chain[k])) {
          const uint32_t type = module_.type_of.at(chain[k]);
          guarded[k] = select(type, chain[k], module_.zero_of_int_type.at(type));
        }
      out.push_back(std::move(guarded));
    };
    // A chain made before the selection, guarded by a copy: its pointer -> the copy's.
    std::unordered_map<uint32_t, uint32_t> copies;
    auto guarded_pointer = [&](uint32_t pointer) {
      if (!outer_chain(pointer, header_pointers)) return pointer;
      auto [it, added] = copies.emplace(pointer, 0);
      if (added) {
        it->second = module_.next_id++;
        guard(module_.shared_chains.at(pointer), it->second);
      }
      return it->second;
    };
    // Words of shared memory this side has read (pointer -> value, type),
    // nothing stored since: a store to one writes back what it read.
    std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> side_read;
    for (Instruction in : body) {
      const spv::Op op = op_of(in);
      if (op == spv::Op::OpLoad && in.size() == 4 && module_.shared_pointers.count(in[3])) {
        in[3] = guarded_pointer(in[3]);
        if (module_.scalar_types.count(in[1])) side_read[in[3]] = {in[2], in[1]};
      }
      if (op == spv::Op::OpStore && in.size() == 3) in[1] = guarded_pointer(in[1]);
      if (guarded_memory_chain(in)) {
        guard(in, in[2]);
      } else if (op == spv::Op::OpStore) {
        const auto [old_value, type] = side_read.count(in[1]) ? side_read.at(in[1]) : rewritable.at(in[1]);
        out.push_back(make_instruction(spv::Op::OpStore, {in[1], select(type, in[2], old_value)}));
        side_read.clear();
      } else {
        out.push_back(in);
      }
    }
  }

  std::vector<Block>& blocks_;
  ModuleFacts& module_;
  uint32_t max_side_;
  std::unordered_map<uint32_t, size_t> index_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> predecessors_;
  // Merge and continue targets of constructs, with how many name each.
  std::unordered_map<uint32_t, int> structural_;
};

}  // namespace

FlatteningResult flatten_short_branches(const std::vector<uint32_t>& words, uint32_t max_side_instructions) {
  return rewrite_module<FlatteningResult>(
      words, [&](const std::vector<WordInstruction>& module, FlatteningResult& result) {
    ModuleFacts facts;
    facts.next_id = words[3];
    std::unordered_set<uint32_t> shared_pointer_types, buffer_pointer_types, int_types;
    for (const Instruction& in : module) {
      const spv::Op op = op_of(in);
      const OpcodeInfo& info = opcode_info(uint16_t(op));
      if (info.has_result_type && info.has_result && in.size() > 2) facts.type_of[in[2]] = in[1];
      if (op == spv::Op::OpTypeInt || op == spv::Op::OpTypeFloat || op == spv::Op::OpTypeBool)
        facts.scalar_types.insert(in[1]);
      if (op == spv::Op::OpTypeInt) int_types.insert(in[1]);
      if (op == spv::Op::OpTypePointer && in[2] == uint32_t(spv::StorageClass::Workgroup))
        shared_pointer_types.insert(in[1]);
      if (op == spv::Op::OpTypePointer && (in[2] == uint32_t(spv::StorageClass::StorageBuffer) ||
                                           in[2] == uint32_t(spv::StorageClass::Uniform)))
        buffer_pointer_types.insert(in[1]);
      if ((op == spv::Op::OpVariable || is_access_chain(op)) && shared_pointer_types.count(in[1]))
        facts.shared_pointers.insert(in[2]);
      if ((op == spv::Op::OpVariable || is_access_chain(op)) && buffer_pointer_types.count(in[1]))
        facts.buffer_pointers.insert(in[2]);
      if (op == spv::Op::OpVariable && buffer_pointer_types.count(in[1])) facts.buffer_variables.insert(in[2]);
      if (op == spv::Op::OpVariable && shared_pointer_types.count(in[1])) facts.shared_variables.insert(in[2]);
      if (is_access_chain(op) && in.size() > 3 && facts.shared_variables.count(in[3])) facts.shared_chains.emplace(in[2], in);
      if (op == spv::Op::OpConstant || op == spv::Op::OpConstantNull) {
        facts.constants.insert(in[2]);
        const bool zero = op == spv::Op::OpConstantNull || std::all_of(in.begin() + 3, in.end(), [](uint32_t w) { return w == 0; });
        if (zero && int_types.count(in[1])) facts.zero_of_int_type.emplace(in[1], in[2]);
      }
    }
    // Rebuild the module function by function, each as its blocks, without
    // the names and decorations of the labels that went with their blocks.
    std::unordered_set<uint32_t> removed_labels;
    std::vector<Instruction> out = rewrite_function_blocks<Block>(module, [&](std::vector<Block>& blocks) {
      result.flattened += FunctionFlattener(blocks, facts, max_side_instructions).run(removed_labels);
    });
    std::erase_if(out, [&](const Instruction& in) {
      const spv::Op op = op_of(in);
      return (op == spv::Op::OpName || op == spv::Op::OpDecorate) && in.size() > 1 && removed_labels.count(in[1]);
    });
    result.words = module_words(words, facts.next_id, out);  // the id bound past the selects' results
  });
}

}  // namespace lanelab::frontend
