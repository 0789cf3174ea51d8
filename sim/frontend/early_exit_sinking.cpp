#include "sim/frontend/early_exit_sinking.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "sim/frontend/spirv_words.h"

namespace lanelab::frontend {
namespace {

using Block = WordBlock;

bool is_debug_line(spv::Op op) { return op == spv::Op::OpLine || op == spv::Op::OpNoLine; }

// The instructions of a block that do something: not its label, not its lines.
std::vector<const WordInstruction*> working(const Block& b) {
  std::vector<const WordInstruction*> out;
  for (size_t k = 1; k < b.instructions.size(); ++k)
    if (!is_debug_line(op_of(b.instructions[k]))) out.push_back(&b.instructions[k]);
  return out;
}

// The ids an instruction reads: every word past its result (or, without
// one, past its opcode). A literal that happens to equal an id only keeps
// that id's definition where it is.
std::vector<uint32_t> read_ids(const WordInstruction& in) {
  if (is_debug_line(op_of(in))) return {};  // a file and literal line and column numbers
  return std::vector<uint32_t>(in.begin() + std::ptrdiff_t(result_word(in) + 1), in.end());
}

// The id an instruction defines (0: none).
uint32_t result_of(const WordInstruction& in) {
  const size_t at = result_word(in);
  return at ? in[at] : 0;
}

struct ModuleFacts {
  std::unordered_set<uint32_t> read_only_pointers;  // Input and PushConstant variables, and chains into them
  std::unordered_set<uint32_t> glsl_std450;         // OpExtInstImport ids of GLSL.std.450
};

// A pointer's storage class from its pointer type, as the other passes
// take it (loop_invariant_hoisting.cpp, rolled_loops.cpp).
ModuleFacts module_facts(const std::vector<WordInstruction>& module) {
  ModuleFacts facts;
  std::unordered_set<uint32_t> read_only_types;  // OpTypePointer ids into Input or PushConstant
  for (const WordInstruction& in : module) {
    const spv::Op op = op_of(in);
    if (op == spv::Op::OpTypePointer && in.size() >= 4 &&
        (in[2] == uint32_t(spv::StorageClass::Input) || in[2] == uint32_t(spv::StorageClass::PushConstant)))
      read_only_types.insert(in[1]);
    if ((op == spv::Op::OpVariable || is_access_chain(op)) && in.size() >= 3 && read_only_types.count(in[1]))
      facts.read_only_pointers.insert(in[2]);
    if (op == spv::Op::OpExtInstImport && in.size() >= 3 &&
        std::strcmp(reinterpret_cast<const char*>(&in[2]), "GLSL.std.450") == 0)
      facts.glsl_std450.insert(in[1]);
  }
  return facts;
}

// What may move past an exit: work with no side effect that reads nothing
// a store can change.
bool movable(const WordInstruction& in, const ModuleFacts& facts) {
  const spv::Op op = op_of(in);
  if (op == spv::Op::OpExtInst) return in.size() >= 4 && facts.glsl_std450.count(in[3]);
  if (op == spv::Op::OpLoad || is_access_chain(op)) return in.size() >= 4 && facts.read_only_pointers.count(in[3]);
  return only_computes(in);
}

class ExitSinker {
 public:
  ExitSinker(std::vector<Block>& blocks, const ModuleFacts& facts) : blocks_(blocks), facts_(facts) {
    for (size_t i = 0; i < blocks_.size(); ++i) index_[blocks_[i].label()] = i;
    for (size_t i = 0; i < blocks_.size(); ++i)
      for (uint32_t s : successors(blocks_[i])) predecessors_[s].push_back(i);
  }

  uint32_t run() {
    uint32_t sunk = 0;
    for (size_t b = 0; b < blocks_.size(); ++b) {
      const WordInstruction& t = blocks_[b].instructions.back();
      if (op_of(t) != spv::Op::OpBranchConditional || t.size() < 4) continue;
      const bool first_leaves = leaves_at_once(t[2]), second_leaves = leaves_at_once(t[3]);
      if (first_leaves == second_leaves) continue;
      const uint32_t past = first_leaves ? t[3] : t[2];
      if (only_predecessor(past) != b || !index_.count(past) || has_loop_merge(blocks_[index_.at(past)])) continue;
      sunk += sink(run_to(b), index_.at(past));
    }
    return sunk;
  }

 private:
  static std::vector<uint32_t> successors(const Block& b) {
    std::vector<uint32_t> s = terminator_successors(b.instructions.back());
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
  }

  static bool has_loop_merge(const Block& b) {
    return std::any_of(b.instructions.begin(), b.instructions.end(),
                       [](const WordInstruction& in) { return op_of(in) == spv::Op::OpLoopMerge; });
  }

  // A block that returns, or only branches to one that does.
  bool leaves_at_once(uint32_t label, int depth = 0) const {
    const auto at = index_.find(label);
    if (at == index_.end()) return false;
    const std::vector<const WordInstruction*> w = working(blocks_[at->second]);
    if (w.size() != 1) return false;
    if (op_of(*w[0]) == spv::Op::OpReturn) return true;
    return depth == 0 && op_of(*w[0]) == spv::Op::OpBranch && leaves_at_once((*w[0])[1], 1);
  }

  // The block whose branch is the only way into `label`, or blocks_.size().
  size_t only_predecessor(uint32_t label) const {
    const auto in = predecessors_.find(label);
    return in != predecessors_.end() && in->second.size() == 1 ? in->second.front() : blocks_.size();
  }

  // The exit branch's block and the straight run of blocks before it: each
  // the only way into the next, none a loop's header.
  std::vector<size_t> run_to(size_t exit_block) const {
    std::vector<size_t> chain{exit_block};
    while (!has_loop_merge(blocks_[chain.front()])) {
      const size_t before = only_predecessor(blocks_[chain.front()].label());
      if (before == blocks_.size() || successors(blocks_[before]).size() != 1 || has_loop_merge(blocks_[before]) ||
          std::find(chain.begin(), chain.end(), before) != chain.end())
        break;
      chain.insert(chain.begin(), before);
    }
    return chain;
  }

  // Moves what the run computes and only `past` and beyond use to the start
  // of `past`, in the order the run computed it.
  uint32_t sink(const std::vector<size_t>& run, size_t past) {
    // Candidates, then those something left behind reads dropped until none is.
    std::unordered_set<uint32_t> moving;
    for (size_t b : run)
      for (const WordInstruction& in : blocks_[b].instructions)
        if (const uint32_t id = result_of(in); id && movable(in, facts_)) moving.insert(id);
    // What leaves at once, and what it leads to, may read nothing moved.
    const WordInstruction& exit = blocks_[run.back()].instructions.back();
    const uint32_t away = exit[2] == blocks_[past].label() ? exit[3] : exit[2];
    std::vector<size_t> stays_in{run.begin(), run.end()};
    for (uint32_t label : reached_from(away, {}, [&](uint32_t l) {
           return index_.count(l) ? successors(blocks_[index_.at(l)]) : std::vector<uint32_t>{};
         }))
      if (index_.count(label)) stays_in.push_back(index_.at(label));
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b : stays_in)
        for (const WordInstruction& in : blocks_[b].instructions) {
          const uint32_t id = result_of(in);
          if (id && moving.count(id)) continue;
          for (uint32_t read : read_ids(in)) changed = moving.erase(read) > 0 || changed;
        }
      // A phi past the exit reads its value at the end of the run.
      for (const WordInstruction& in : blocks_[past].instructions)
        if (op_of(in) == spv::Op::OpPhi)
          for (uint32_t read : read_ids(in)) changed = moving.erase(read) > 0 || changed;
    }
    if (moving.empty()) return 0;
    std::vector<WordInstruction> moved;
    for (size_t b : run) {
      auto& list = blocks_[b].instructions;
      for (auto it = list.begin(); it != list.end();) {
        if (const uint32_t id = result_of(*it); id && moving.count(id)) {
          moved.push_back(std::move(*it));
          it = list.erase(it);
        } else {
          ++it;
        }
      }
    }
    auto& into = blocks_[past].instructions;
    auto at = into.begin() + 1;
    while (at != into.end() && op_of(*at) == spv::Op::OpPhi) ++at;
    into.insert(at, moved.begin(), moved.end());
    return uint32_t(moved.size());
  }

  std::vector<Block>& blocks_;
  const ModuleFacts& facts_;
  std::unordered_map<uint32_t, size_t> index_;
  std::unordered_map<uint32_t, std::vector<size_t>> predecessors_;  // by label: the blocks that branch to it
};

}  // namespace

SinkingResult sink_past_early_exits(const std::vector<uint32_t>& words) {
  return rewrite_module<SinkingResult>(words, [&](const std::vector<WordInstruction>& module, SinkingResult& result) {
    const ModuleFacts facts = module_facts(module);
    const std::vector<WordInstruction> out =
        rewrite_function_blocks<Block>(module, [&](std::vector<Block>& blocks) {
          result.sunk += ExitSinker(blocks, facts).run();
        });
    result.words = module_words(words, words[3], out);
  });
}

}  // namespace lanelab::frontend
