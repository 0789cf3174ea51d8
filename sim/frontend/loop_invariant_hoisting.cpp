#include "sim/frontend/loop_invariant_hoisting.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "sim/frontend/spirv_words.h"

namespace lanelab::frontend {
namespace {

// Each load of an Input variable (or of a chain into one at constant
// indices) moved right after its function's entry-block variables.
std::vector<WordInstruction> hoist_input_loads(const std::vector<WordInstruction>& module, uint32_t& moved_count) {
  std::unordered_set<uint32_t> inputs, constants;
  for (const WordInstruction& in : module) {
    const spv::Op op = op_of(in);
    if (op == spv::Op::OpVariable && in.size() >= 4 && in[3] == uint32_t(spv::StorageClass::Input))
      inputs.insert(in[2]);
    if (op == spv::Op::OpConstant && in.size() >= 3) constants.insert(in[2]);
  }
  std::vector<WordInstruction> out, moved;
  std::unordered_set<uint32_t> input_pointers;  // inputs, and chains into them at constant indices
  bool awaiting_entry = false, in_entry_variables = false;
  size_t entry_at = 0;  // where the function's entry block takes the moved loads
  for (const WordInstruction& in : module) {
    const spv::Op op = op_of(in);
    if (op == spv::Op::OpFunction) {
      input_pointers = inputs;
      awaiting_entry = true;
    }
    if (op == spv::Op::OpFunctionEnd) {
      out.insert(out.begin() + std::ptrdiff_t(entry_at), moved.begin(), moved.end());
      moved_count += uint32_t(moved.size());
      moved.clear();
    }
    if (op == spv::Op::OpLabel && awaiting_entry) {
      awaiting_entry = false;
      in_entry_variables = true;
      out.push_back(in);
      entry_at = out.size();
      continue;
    }
    if (in_entry_variables && op == spv::Op::OpVariable) {
      out.push_back(in);
      entry_at = out.size();
      continue;
    }
    in_entry_variables = false;
    const bool chain = is_access_chain(op) && in.size() >= 4 &&
                       input_pointers.count(in[3]);
    bool constant_indices = chain;
    for (size_t k = 4; chain && k < in.size(); ++k) constant_indices = constant_indices && constants.count(in[k]);
    if (constant_indices) {
      input_pointers.insert(in[2]);
      moved.push_back(in);
      continue;
    }
    if (op == spv::Op::OpLoad && in.size() >= 4 && input_pointers.count(in[3])) {
      moved.push_back(in);
      continue;
    }
    out.push_back(in);
  }
  return out;
}

// NVIDIA's predicate registers (P0-P6) per lane.
constexpr uint32_t kPredicateRegisters = 7;

bool is_atomic(const WordInstruction& in) {
  return std::strcmp(opcode_info(uint16_t(op_of(in))).grammar_class, "Atomic") == 0;
}

// What a loop's trips may read differently: it writes memory (a store, an
// atomic, an image write, a copy), waits for others that may (a barrier) or
// calls what may.
bool may_write(const WordInstruction& in) {
  switch (op_of(in)) {
    case spv::Op::OpStore: case spv::Op::OpCopyMemory: case spv::Op::OpCopyMemorySized:
    case spv::Op::OpControlBarrier: case spv::Op::OpMemoryBarrier: case spv::Op::OpFunctionCall:
    case spv::Op::OpImageWrite:
      return true;
    default:
      return is_atomic(in);
  }
}

// Which memory a pointer's storage class puts it in, as far as a store may
// change what a load reads: the buffers together (storage, uniform, push
// constants: two descriptors may name one buffer), workgroup, function,
// private and input memory each on its own, and kAnySpace where that is not
// known. A loop that stores only to shared memory still reads a buffer's
// fixed address once: the NVIDIA driver loads the shared chase's `offset`
// before the loop that stores to shared memory in every step
// (validate/data/sass/driver-2026-11-26-store-load/).
constexpr uint32_t kBufferSpace = 0xffff'fffe, kAnySpace = 0xffff'ffff;
uint32_t space_of(uint32_t storage_class) {
  switch (spv::StorageClass(storage_class)) {
    case spv::StorageClass::StorageBuffer: case spv::StorageClass::Uniform:
    case spv::StorageClass::PushConstant: case spv::StorageClass::UniformConstant:
      return kBufferSpace;
    case spv::StorageClass::Workgroup: case spv::StorageClass::Function:
    case spv::StorageClass::Private: case spv::StorageClass::Input:
      return storage_class;
    default:
      return kAnySpace;
  }
}

struct ModuleFacts {
  std::unordered_set<uint32_t> bool_types, constants, variables;  // ids
  // Each variable's and access chain's space_of its pointer type's storage class.
  std::unordered_map<uint32_t, uint32_t> pointer_spaces;
};

using Block = WordBlock;

// Moves what only computes from values defined outside a loop to the loop's
// preheader. Returns how many moved.
uint32_t hoist_from_loops(std::vector<Block>& blocks, const ModuleFacts& facts) {
  const auto& [bool_types, constants, variables, pointer_spaces] = facts;
  std::unordered_map<uint32_t, size_t> index;
  for (size_t b = 0; b < blocks.size(); ++b) index[blocks[b].label()] = b;
  auto successors = [&](size_t b) { return terminator_successors(blocks[b].instructions.back()); };
  uint32_t moved = 0;
  const auto space = [&](uint32_t pointer) {
    const auto known = pointer_spaces.find(pointer);
    return known == pointer_spaces.end() ? kAnySpace : known->second;
  };
  // Inner loops first (a loop's header comes after its enclosing loop's):
  // what leaves an inner loop may then leave the enclosing one too.
  for (size_t h = blocks.size(); h-- > 0;) {
    const std::vector<WordInstruction>& hi = blocks[h].instructions;
    if (hi.size() < 3 || op_of(hi[hi.size() - 2]) != spv::Op::OpLoopMerge) continue;
    const uint32_t merge = hi[hi.size() - 2][1];
    // The loop's blocks: reachable from the header without leaving through the merge.
    std::unordered_set<size_t> body;
    const auto in_function = [&](uint32_t label) {
      std::vector<uint32_t> known;
      for (uint32_t s : successors(index.at(label)))
        if (index.count(s)) known.push_back(s);
      return known;
    };
    for (uint32_t label : reached_from(blocks[h].label(), {merge}, in_function)) body.insert(index.at(label));
    // The one block outside the loop that enters it, by an unconditional branch.
    size_t preheader = blocks.size();
    uint32_t entries = 0;
    for (size_t b = 0; b < blocks.size(); ++b)
      if (!body.count(b))
        for (uint32_t s : successors(b))
          if (s == blocks[h].label()) ++entries, preheader = b;
    if (entries != 1 || op_of(blocks[preheader].instructions.back()) != spv::Op::OpBranch) continue;

    std::unordered_set<uint32_t> defined_inside;
    std::vector<size_t> ordered(body.begin(), body.end());
    std::sort(ordered.begin(), ordered.end());  // function order: a value's definition before its uses
    for (size_t b : ordered)
      for (const WordInstruction& in : blocks[b].instructions)
        if (const size_t result = result_word(in)) defined_inside.insert(in[result]);
    // A loop that writes no memory where a pointer points, waits at no
    // barrier and calls nothing reads the same value there in every trip.
    std::unordered_set<uint32_t> written;  // spaces (space_of) the loop's stores and atomics write
    bool waits = false;
    for (size_t b : ordered)
      for (const WordInstruction& in : blocks[b].instructions) {
        const spv::Op op = op_of(in);
        waits = waits || op == spv::Op::OpControlBarrier;
        if (!may_write(in)) continue;
        const bool names_target = (op == spv::Op::OpStore || op == spv::Op::OpCopyMemory) && in.size() >= 2;
        written.insert(names_target ? space(in[1]) : is_atomic(in) && in.size() >= 4 ? space(in[3]) : kAnySpace);
      }
    if (waits) continue;  // a loop that waits at a barrier keeps what it computes (the header)
    const auto unwritten = [&](uint32_t pointer) {
      return !written.count(kAnySpace) && !written.count(space(pointer));
    };
    // What may move: what only computes, and a load from a fixed address (a
    // variable, or an access chain at constant indices: in bounds whether or
    // not the loop runs) in memory the loop does not write, from operands
    // defined outside the loop or by what moves before it (an operand word
    // that is a literal equal to such an id only keeps the instruction in
    // the loop).
    std::unordered_set<uint32_t> fixed_pointers;
    auto movable = [&](const WordInstruction& in) {
      if (in.size() < 3) return false;
      const spv::Op op = op_of(in);
      if (only_computes(in)) return true;
      if (in.size() < 4 || !unwritten(in[3])) return false;
      if (is_access_chain(op)) {
        for (size_t w = 4; w < in.size(); ++w)
          if (!constants.count(in[w])) return false;
        return true;
      }
      return op == spv::Op::OpLoad && (variables.count(in[3]) || fixed_pointers.count(in[3]));
    };
    std::unordered_set<uint32_t> candidates;  // result ids
    for (size_t b : ordered)
      for (const WordInstruction& in : blocks[b].instructions) {
        bool invariant = movable(in);
        for (size_t w = 3; invariant && w < in.size(); ++w) invariant = !defined_inside.count(in[w]);
        if (!invariant) continue;
        candidates.insert(in[2]);
        defined_inside.erase(in[2]);
        if (is_access_chain(op_of(in)))
          fixed_pointers.insert(in[2]);
      }
    // A condition that stays live into the loop holds a predicate register
    // for the whole loop: at most kPredicateRegisters of them move, in
    // program order; the others, and what is computed from them, stay
    // (Ballot32's 32 `i == row_ix` are computed again in every repetition
    // on the H100; Shuffle32's 5 move).
    for (bool dropped = true; dropped;) {
      dropped = false;
      std::unordered_set<uint32_t> live_in;
      for (size_t b : ordered)
        for (const WordInstruction& in : blocks[b].instructions)
          if (in.size() < 3 || !candidates.count(in[2]))
            for (size_t w = 1; w < in.size(); ++w)
              if (candidates.count(in[w])) live_in.insert(in[w]);
      uint32_t predicates = 0;
      for (size_t b : ordered)
        for (const WordInstruction& in : blocks[b].instructions) {
          if (in.size() < 3 || !candidates.count(in[2])) continue;
          bool keep = true;
          for (size_t w = 3; keep && w < in.size(); ++w) keep = !defined_inside.count(in[w]);
          if (keep && bool_types.count(in[1]) && live_in.count(in[2])) keep = ++predicates <= kPredicateRegisters;
          if (!keep) {
            candidates.erase(in[2]);
            defined_inside.insert(in[2]);
            dropped = true;
          }
        }
    }
    std::vector<WordInstruction> hoisted;
    for (size_t b : ordered) {
      std::vector<WordInstruction>& list = blocks[b].instructions;
      for (size_t k = 1; k + 1 < list.size();) {
        if (list[k].size() >= 3 && movable(list[k]) && candidates.count(list[k][2])) {
          hoisted.push_back(list[k]);
          list.erase(list.begin() + std::ptrdiff_t(k));
        } else {
          ++k;
        }
      }
    }
    if (hoisted.empty()) continue;
    std::vector<WordInstruction>& target = blocks[preheader].instructions;
    size_t at = target.size() - 1;  // before the branch, and before a merge instruction heading it
    if (at > 1 && (op_of(target[at - 1]) == spv::Op::OpLoopMerge || op_of(target[at - 1]) == spv::Op::OpSelectionMerge))
      --at;
    target.insert(target.begin() + std::ptrdiff_t(at), hoisted.begin(), hoisted.end());
    moved += uint32_t(hoisted.size());
  }
  return moved;
}

}  // namespace

HoistingResult hoist_loop_invariants(const std::vector<uint32_t>& words) {
  return rewrite_module<HoistingResult>(
      words, [&](const std::vector<WordInstruction>& split, HoistingResult& result) {
    const std::vector<WordInstruction> module = hoist_input_loads(split, result.input_loads);
    ModuleFacts facts;
    std::unordered_map<uint32_t, uint32_t> pointer_classes;  // OpTypePointer id -> storage class
    for (const WordInstruction& in : module) {
      const spv::Op op = op_of(in);
      if (op == spv::Op::OpTypeBool) facts.bool_types.insert(in[1]);
      if (op == spv::Op::OpConstant && in.size() >= 3) facts.constants.insert(in[2]);
      if (op == spv::Op::OpTypePointer && in.size() >= 4) pointer_classes[in[1]] = in[2];
      if (op == spv::Op::OpVariable && in.size() >= 3) facts.variables.insert(in[2]);
      if ((op == spv::Op::OpVariable || is_access_chain(op)) && in.size() >= 3 && pointer_classes.count(in[1]))
        facts.pointer_spaces[in[2]] = space_of(pointer_classes.at(in[1]));
    }

    const std::vector<WordInstruction> out = rewrite_function_blocks<Block>(
        module, [&](std::vector<Block>& blocks) { result.hoisted += hoist_from_loops(blocks, facts); });
    result.words = module_words(words, words[3], out);
  });
}

}  // namespace lanelab::frontend
