#include "sim/timing/block_scheduler.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "sim/frontend/spirv_words.h"
#include "sim/timing/instruction_class.h"
#include "sim/timing/slot_facts.h"

namespace lanelab::timing {

namespace {

using frontend::Instruction;
using frontend::Program;

bool stays_first(const Instruction& in) {
  return spv::Op(in.opcode) == spv::Op::OpPhi || spv::Op(in.opcode) == spv::Op::OpLabel;
}

bool stays_last(const Instruction& in) {
  const auto op = spv::Op(in.opcode);
  return op == spv::Op::OpSelectionMerge || op == spv::Op::OpLoopMerge ||
         classify_instruction(in) == InstrClass::Branch;
}

// Instructions whose order among themselves is kept: memory accesses,
// anything without a result (it acts on something else).
bool is_ordered(const Instruction& in) {
  const InstrClass c = classify_instruction(in);
  return c == InstrClass::Global || c == InstrClass::Barrier || in.result_id == frontend::kNoId;
}

// Accesses to different storage classes never alias (a storage buffer is not
// shared memory), so a vendor compiler keeps each class's accesses in order
// but moves one class's past another's: APSP's tile copy, written load,
// store, load, store, issues all its global loads before the first shared
// store waits for one. Whatever else is ordered (a barrier, an instruction
// with no result that is not an access) keeps its place against them all.
constexpr size_t kEveryClass = 0;

// The storage class a load, store or atomic reaches (pointer_classes), where
// its pointer's is known.
std::optional<InstrClass> reached_class(const Instruction& in, const Program& p,
                                        const std::vector<InstrClass>& pointer_class) {
  if (in.operand_count == 0 || !p.operand_is_slot[in.operand_begin] ||
      p.operands[in.operand_begin] >= pointer_class.size())
    return std::nullopt;
  return pointer_class[p.operands[in.operand_begin]];
}

size_t ordered_class(const Instruction& in, const Program& p, const std::vector<InstrClass>& pointer_class) {
  if (classify_instruction(in) != InstrClass::Global || spv::Op(in.opcode) == spv::Op::OpCopyMemory)
    return kEveryClass;
  const std::optional<InstrClass> reached = reached_class(in, p, pointer_class);
  return reached ? size_t(*reached) + 1 : kEveryClass;
}

// How many of the shared-memory stores before it a shared load may be issued
// above, where the code tells its word apart from theirs. The H100's driver
// loads an APSP cell's own word one cell ahead, above the store of the cell
// before (`LDS R11, [R13+0x40]` ahead of `@!P0 STS [R13]`:
// validate/data/sass/driver-2026-11-26/apsp-64-16x16/phase2.sass).
constexpr size_t kStoresALoadPasses = 1;

// Where a shared-memory access reads or writes, as far as the code tells:
// its variable, and its bytes as a linear sum of slots plus a constant.
struct SharedWords {
  uint32_t variable = frontend::kNoId;
  bool known = false;  // the offset is a known linear sum (one run-time index at most)
  IndexTerms terms;
  int64_t first = 0, bytes = 0;
};

// Two accesses that cannot touch one word: different variables, or one
// variable at byte ranges the same terms put apart.
bool apart(const SharedWords& a, const SharedWords& b) {
  if (a.variable == frontend::kNoId || b.variable == frontend::kNoId) return false;
  if (a.variable != b.variable) return true;
  return a.known && b.known && a.terms == b.terms && (a.first + a.bytes <= b.first || b.first + b.bytes <= a.first);
}

class BlockScheduler {
 public:
  BlockScheduler(const Program& program, const InstructionLatencyCycles& latency)
      : p_(program),
        latency_(latency),
        pointer_class_(pointer_classes(program)),
        pointer_variable_(pointer_variables(program)),
        facts_(program),
        producer_(program.slot_count, -1) {}

  // The new order of instructions [begin, end) of the program.
  std::vector<uint32_t> order(uint32_t begin, uint32_t end) {
    const uint32_t n = end - begin;
    // Successors through a value (the producer's latency applies) and
    // through the order of memory accesses (only the order does).
    std::vector<std::vector<uint32_t>> successors(n), followers(n);
    std::vector<uint32_t> predecessors(n, 0), cost(n), issue(n);
    // Per storage class (ordered_class), the last ordered instruction placed
    // in the original order; kEveryClass's follows and precedes every class.
    std::vector<int> last_ordered(size_t(InstrClass::Other) + 2, -1);
    // Shared memory's stores since the last instruction every class follows,
    // with their words, and the loads since the last of them.
    std::vector<std::pair<uint32_t, SharedWords>> shared_stores;
    std::vector<uint32_t> loads_since_store;
    for (uint32_t i = 0; i < n; ++i) {
      const Instruction& in = p_.instructions[begin + i];
      cost[i] = latency_of(in);
      issue[i] = is_free(in) ? 0 : 1;
      std::vector<uint32_t> from;
      frontend::for_each_read_slot(p_, in, [&](uint32_t slot, bool) {
        if (slot < producer_.size() && producer_[slot] >= 0) from.push_back(uint32_t(producer_[slot]));
      });
      std::sort(from.begin(), from.end());
      from.erase(std::unique(from.begin(), from.end()), from.end());
      for (uint32_t f : from) successors[f].push_back(i);
      predecessors[i] = uint32_t(from.size());
      if (is_ordered(in)) {
        const size_t space = ordered_class(in, p_, pointer_class_);
        std::vector<uint32_t> after;
        const bool shared = space == size_t(InstrClass::Shared) + 1;
        const bool shared_load = shared && spv::Op(in.opcode) == spv::Op::OpLoad;
        if (shared_load) {
          // A shared load follows the stores that may write its word and all
          // but the last kStoresALoadPasses of the others. Until the region's
          // first store, loads keep their written order; past it, a load
          // moves ahead with the loads since the store it passes.
          // The stores keep their own order, so following the one
          // kStoresALoadPasses back follows every store before it too.
          const SharedWords words = shared_words(in);
          const size_t passable = std::min(kStoresALoadPasses, shared_stores.size());
          if (passable < shared_stores.size()) after.push_back(shared_stores[shared_stores.size() - passable - 1].first);
          for (size_t k = shared_stores.size() - passable; k < shared_stores.size(); ++k)
            if (!apart(words, shared_stores[k].second)) after.push_back(shared_stores[k].first);
          if (last_ordered[kEveryClass] >= 0) after.push_back(uint32_t(last_ordered[kEveryClass]));
          if (shared_stores.empty() && !loads_since_store.empty())
            after.push_back(loads_since_store.back());
          loads_since_store.push_back(i);
        } else {
          for (size_t k = 0; k < last_ordered.size(); ++k)
            if ((space == kEveryClass || k == space || k == kEveryClass) && last_ordered[k] >= 0)
              after.push_back(uint32_t(last_ordered[k]));
          // A shared store or atomic, and whatever keeps its place against
          // every access, follows each load since the last of them.
          if (space == kEveryClass || shared) after.insert(after.end(), loads_since_store.begin(), loads_since_store.end());
          if (space == kEveryClass) shared_stores.clear(), loads_since_store.clear();
          if (shared) shared_stores.push_back({i, shared_words(in)}), loads_since_store.clear();
        }
        std::sort(after.begin(), after.end());
        after.erase(std::unique(after.begin(), after.end()), after.end());
        for (uint32_t a : after) followers[a].push_back(i);
        predecessors[i] += uint32_t(after.size());
        if (space == kEveryClass) std::fill(last_ordered.begin(), last_ordered.end(), -1);
        if (!shared_load) last_ordered[space] = int(i);
      }
      for (uint32_t s = 0; s < frontend::result_slot_count(p_, in); ++s) producer_[in.result_slot + s] = int(i);
    }
    for (uint32_t i = 0; i < n; ++i) {
      const Instruction& in = p_.instructions[begin + i];
      for (uint32_t s = 0; s < frontend::result_slot_count(p_, in); ++s) producer_[in.result_slot + s] = -1;
    }
    // Longest latency path from each instruction to the end of the block
    // (every edge points forward in the original order).
    std::vector<uint64_t> height(n, 0);
    for (uint32_t i = n; i-- > 0;) {
      uint64_t below = 0;
      for (uint32_t s : successors[i]) below = std::max(below, cost[i] + height[s]);
      for (uint32_t s : followers[i]) below = std::max(below, issue[i] + height[s]);
      height[i] = std::max<uint64_t>(below, cost[i]);
    }
    std::vector<uint64_t> earliest(n, 0);
    std::vector<uint32_t> ready, placed;
    for (uint32_t i = 0; i < n; ++i)
      if (predecessors[i] == 0) ready.push_back(i);
    uint64_t cycle = 0;
    while (!ready.empty()) {
      size_t best = 0;
      for (size_t k = 1; k < ready.size(); ++k) {
        const uint32_t a = ready[k], b = ready[best];
        const uint64_t start_a = std::max(cycle, earliest[a]), start_b = std::max(cycle, earliest[b]);
        if (start_a != start_b ? start_a < start_b : height[a] != height[b] ? height[a] > height[b] : a < b) best = k;
      }
      const uint32_t i = ready[best];
      ready.erase(ready.begin() + std::ptrdiff_t(best));
      const uint64_t start = std::max(cycle, earliest[i]);
      cycle = start + issue[i];
      placed.push_back(begin + i);
      for (uint32_t s : successors[i]) {
        earliest[s] = std::max(earliest[s], start + cost[i]);
        if (--predecessors[s] == 0) ready.push_back(s);
      }
      for (uint32_t s : followers[i]) {
        earliest[s] = std::max(earliest[s], start + issue[i]);
        if (--predecessors[s] == 0) ready.push_back(s);
      }
    }
    return placed;
  }

 private:
  // What a shared load or store reads or writes (an atomic: its variable,
  // words unknown): as many bytes as its memory type's leaves, as the
  // functional simulator moves them.
  SharedWords shared_words(const Instruction& in) const {
    SharedWords w;
    const uint32_t pointer = p_.operands[in.operand_begin];
    if (pointer >= pointer_variable_.size()) return w;
    w.variable = pointer_variable_[pointer];
    const auto op = spv::Op(in.opcode);
    if ((op != spv::Op::OpLoad && op != spv::Op::OpStore) || in.aux >= p_.leaf_lists.size()) return w;
    w.bytes = int64_t(frontend::extent(p_.leaf_lists[in.aux]));
    const uint32_t made = facts_.producer[pointer];
    if (made == kNoFact) {
      w.known = true;  // the variable itself
      return w;
    }
    const Instruction& chain = p_.instructions[made];
    if (!frontend::is_access_chain(spv::Op(chain.opcode))) return w;
    const frontend::AccessChain& access = p_.chains[chain.aux];
    if (access.dynamic.size() > 1) return w;
    w.first = access.constant_offset;
    if (access.dynamic.size() == 1) {
      const AffineIndex index = facts_.sum_of(p_, access.dynamic[0].slot);
      const auto stride = int64_t(access.dynamic[0].stride_bytes);
      for (const auto& [slot, times] : index.terms) w.terms.push_back({slot, times * stride});
      w.first += index.offset * stride;
    }
    w.known = true;
    return w;
  }

  // Cycles until the instruction's result can be read, as the compute unit charges them.
  uint32_t latency_of(const Instruction& in) const {
    if (is_free(in)) return 0;
    if (spv::Op(in.opcode) == spv::Op::OpIMul) return latency_.int_multiply;
    InstrClass c = classify_instruction(in);
    if (c == InstrClass::Global) c = reached_class(in, p_, pointer_class_).value_or(c);
    return class_latency_cycles(c, latency_);
  }

  const Program& p_;
  const InstructionLatencyCycles& latency_;
  std::vector<InstrClass> pointer_class_;
  std::vector<uint32_t> pointer_variable_;  // per pointer slot: the variable it reaches (pointer_variables)
  SlotFacts facts_;
  std::vector<int> producer_;  // per slot: the block-local instruction writing it, while scheduling a block
};

}  // namespace

Program schedule_blocks(const Program& program, const InstructionLatencyCycles& latency) {
  Program scheduled = program;
  BlockScheduler scheduler(program, latency);
  for (const frontend::Block& block : program.blocks) {
    uint32_t begin = block.first, end = block.end;
    while (begin < end && stays_first(program.instructions[begin])) ++begin;
    while (end > begin && stays_last(program.instructions[end - 1])) --end;
    // A barrier bounds the regions: the subgroup waits there for the others
    // however its instructions are ordered, so nothing crosses it.
    for (uint32_t region = begin; region < end;) {
      uint32_t stop = region;
      while (stop < end && classify_instruction(program.instructions[stop]) != InstrClass::Barrier) ++stop;
      if (stop - region >= 2) {
        const std::vector<uint32_t> order = scheduler.order(region, stop);
        for (uint32_t k = 0; k < order.size(); ++k) scheduled.instructions[region + k] = program.instructions[order[k]];
      }
      region = stop + 1;
    }
  }
  return scheduled;
}

}  // namespace lanelab::timing
