#include "sim/frontend/rolled_loops.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "sim/frontend/spirv_words.h"

namespace lanelab::frontend {
namespace {

// Trips beyond this are counted as this many: enough to exceed any bound here.
constexpr uint64_t kMaxCountedTrips = 1u << 16;

struct BlockInfo {
  std::vector<uint32_t> successors;
  std::vector<const WordInstruction*> instructions;
  bool barrier = false;
  uint64_t counted_accesses = 0;  // storage-buffer loads and stores, shared-memory stores
  bool loads_shared = false;
  std::vector<const WordInstruction*> private_stores;  // OpStore to Function memory
  uint32_t loop_merge = 0, loop_continue = 0, loop_control = 0, selection_merge = 0;
};

struct Loop {
  uint32_t header = 0;
  std::unordered_set<uint32_t> body;  // the header and every block reached before the merge
};

class LoopNest {
 public:
  explicit LoopNest(const std::vector<WordInstruction>& module) {
    std::unordered_map<uint32_t, uint32_t> int_width;            // OpTypeInt id -> width
    std::unordered_map<uint32_t, uint32_t> pointer_class;        // OpTypePointer id -> storage class
    std::unordered_map<uint32_t, uint32_t> type_of;              // result id -> its type id
    uint32_t current = 0;  // the block being read (0 between functions)
    for (const WordInstruction& in : module) {
      const spv::Op op = op_of(in);
      if (op == spv::Op::OpTypeInt && in.size() >= 3) int_width[in[1]] = in[2];
      if (op == spv::Op::OpTypePointer && in.size() >= 4) pointer_class[in[1]] = in[2];
      if (op == spv::Op::OpConstant && in.size() == 4 && int_width[in[1]] == 32) constant_[in[2]] = in[3];
      const OpcodeInfo& info = opcode_info(uint16_t(op));
      if (info.has_result_type && info.has_result && in.size() >= 3) {
        type_of[in[2]] = in[1];
        definition_[in[2]] = &in;
      }
      if (op == spv::Op::OpLabel) current = in[1];
      if (op == spv::Op::OpFunctionEnd) current = 0;
      if (current == 0) continue;
      BlockInfo& b = blocks_[current];
      b.instructions.push_back(&in);
      if (op == spv::Op::OpControlBarrier) b.barrier = true;
      // What the unrolled loop's size is counted in (rolled_loops.h).
      if ((op == spv::Op::OpLoad && in.size() >= 4) || (op == spv::Op::OpStore && in.size() >= 3)) {
        const auto cls = pointer_class.find(type_of[in[op == spv::Op::OpLoad ? 3 : 1]]);
        const uint32_t c = cls == pointer_class.end() ? ~0u : cls->second;
        if (c == uint32_t(spv::StorageClass::StorageBuffer) || c == uint32_t(spv::StorageClass::PhysicalStorageBuffer) ||
            (op == spv::Op::OpStore && c == uint32_t(spv::StorageClass::Workgroup)))
          ++b.counted_accesses;
        if (op == spv::Op::OpLoad && c == uint32_t(spv::StorageClass::Workgroup)) b.loads_shared = true;
        if (op == spv::Op::OpStore && c == uint32_t(spv::StorageClass::Function)) b.private_stores.push_back(&in);
      }
      if (op == spv::Op::OpSelectionMerge && in.size() >= 2) b.selection_merge = in[1];
      if (op == spv::Op::OpLoopMerge && in.size() >= 4) {
        b.loop_merge = in[1];
        b.loop_continue = in[2];
        b.loop_control = in[3];
        loops_.push_back({current, {}});
      }
      b.successors = terminator_successors(in);  // the block's last instruction, its terminator, decides
    }
    for (Loop& loop : loops_) {
      const BlockInfo& h = blocks_[loop.header];
      loop.body = reachable_from(loop.header, {h.loop_merge});
    }
  }

  const std::vector<Loop>& loops() const { return loops_; }

  // Whether the loop's body holds a barrier, inner loops included.
  bool has_barrier(const Loop& loop) {
    for (uint32_t b : loop.body)
      if (blocks_[b].barrier) return true;
    return false;
  }

  // Whether the loop's body holds a barrier that some trip does not execute:
  // one the continue target can be reached without passing.
  bool has_conditional_barrier(const Loop& loop) {
    const BlockInfo& h = blocks_[loop.header];
    for (uint32_t b : loop.body) {
      if (b == loop.header || !blocks_[b].barrier) continue;
      if (reachable_from(loop.header, {h.loop_merge, b}).count(h.loop_continue)) return true;
    }
    return false;
  }

  // The loops immediately inside this one.
  std::vector<const Loop*> inner_loops(const Loop& loop) const {
    std::vector<const Loop*> inner;
    for (const Loop& l : loops_)
      if (&l != &loop && loop.body.count(l.header) && immediately_inside(l, loop)) inner.push_back(&l);
    return inner;
  }

  // Whether the loop's body holds an if/else both of whose sides read shared
  // memory (what the driver predicates: both sides' loads issued).
  bool has_if_else_reading_shared_on_both_sides(const Loop& loop) {
    for (uint32_t b : loop.body) {
      const BlockInfo& header = blocks_[b];
      if (!header.selection_merge || header.successors.size() != 2) continue;
      const auto side_reads_shared = [&](uint32_t side) {
        if (side == header.selection_merge) return false;
        for (uint32_t s : reachable_from(side, {header.selection_merge}))
          if (blocks_[s].loads_shared) return true;
        return false;
      };
      if (side_reads_shared(header.successors[0]) && side_reads_shared(header.successors[1])) return true;
    }
    return false;
  }

  // Whether the loop holds one loop whose body has such an if/else, both of
  // at least kMinRolledNestTrips trips and together kMinRolledNestInnerTrips
  // trips of that body (rolled_loops.h: APSP phase 2's rows of cells).
  bool is_nest_of_predicated_cells(const Loop& loop) {
    const std::vector<const Loop*> inner = inner_loops(loop);
    if (inner.size() != 1 || !has_if_else_reading_shared_on_both_sides(*inner[0])) return false;
    const std::optional<uint64_t> trips = trip_count(loop), inner_trips = trip_count(*inner[0]);
    return trips && inner_trips && *trips >= kMinRolledNestTrips && *inner_trips >= kMinRolledNestTrips &&
           *trips * *inner_trips >= kMinRolledNestInnerTrips;
  }

  // The counted accesses a lane issues in the loop, inner loops included,
  // once every one of them is unrolled; nullopt when a trip count is unknown.
  std::optional<uint64_t> unrolled_accesses(const Loop& loop) {
    const std::optional<uint64_t> trips = trip_count(loop);
    if (!trips) return std::nullopt;
    const std::optional<uint64_t> accesses = per_trip(loop, [](const BlockInfo& b) { return b.counted_accesses; });
    if (!accesses) return std::nullopt;
    return std::min(*trips, kMaxCountedTrips) * *accesses;
  }

  // Whether the loop asks not to be unrolled.
  bool asks_to_stay_rolled(const Loop& loop) const {
    return blocks_.at(loop.header).loop_control & uint32_t(spv::LoopControlMask::DontUnroll);
  }

  // The values each step of the loop folds into and the next step reads
  // again (rolled_loops.h): its header's phis but its counter's, and the
  // private elements its steps store to at an index its counter does not
  // change, inner loops' trips counted; nullopt when a count is unknown.
  std::optional<uint64_t> accumulators(const Loop& loop) {
    const std::optional<uint32_t> counter = induction(loop);
    if (!counter || !trip_count(loop)) return std::nullopt;
    uint64_t phis = 0;
    for (const WordInstruction* in : blocks_[loop.header].instructions)
      if (op_of(*in) == spv::Op::OpPhi && (*in)[2] != *counter) ++phis;
    // Private stores at an index the counter does not change.
    const std::optional<uint64_t> updates = per_trip(loop, [&](const BlockInfo& b) {
      return uint64_t(std::count_if(b.private_stores.begin(), b.private_stores.end(),
                                    [&](const WordInstruction* store) { return !depends_on((*store)[1], *counter); }));
    });
    if (!updates) return std::nullopt;
    return phis + *updates;
  }

  // The trips of `for (i = c0; i OP c1; i += c2)` as the header tests it:
  // a phi entering with a constant, stepped by a constant, compared with a
  // constant, the branch leaving for the merge on one outcome.
  std::optional<uint64_t> trip_count(const Loop& loop) {
    const BlockInfo& h = blocks_[loop.header];
    const WordInstruction* cmp_in = exit_compare(loop);
    if (!cmp_in) return std::nullopt;
    const WordInstruction& cmp = *cmp_in;
    const bool go_on_true = h.instructions.back()->at(3) == h.loop_merge;
    const WordInstruction* phi = counter_phi(loop, cmp);
    if (!phi) return std::nullopt;
    const uint32_t induction = (*phi)[2];
    const bool back_first = loop.body.count((*phi)[4]) > 0;
    const std::optional<uint32_t> start = constant(back_first ? (*phi)[5] : (*phi)[3]);
    const auto next = definition_.find(back_first ? (*phi)[3] : (*phi)[5]);
    const std::optional<uint32_t> bound = constant(cmp[3] == induction ? cmp[4] : cmp[3]);
    if (!start || !bound || next == definition_.end() || next->second->size() != 5) return std::nullopt;
    const WordInstruction& step_in = *next->second;
    std::optional<uint32_t> step;
    if (op_of(step_in) == spv::Op::OpIAdd && (step_in[3] == induction || step_in[4] == induction))
      step = constant(step_in[3] == induction ? step_in[4] : step_in[3]);
    if (op_of(step_in) == spv::Op::OpISub && step_in[3] == induction && constant(step_in[4]))
      step = 0u - *constant(step_in[4]);
    if (!step) return std::nullopt;

    const auto holds = [&](uint32_t i) -> std::optional<bool> {
      const uint32_t x = cmp[3] == induction ? i : *bound, y = cmp[4] == induction ? i : *bound;
      const int32_t sx = int32_t(x), sy = int32_t(y);
      switch (op_of(cmp)) {
        case spv::Op::OpULessThan: return x < y;
        case spv::Op::OpULessThanEqual: return x <= y;
        case spv::Op::OpUGreaterThan: return x > y;
        case spv::Op::OpUGreaterThanEqual: return x >= y;
        case spv::Op::OpSLessThan: return sx < sy;
        case spv::Op::OpSLessThanEqual: return sx <= sy;
        case spv::Op::OpSGreaterThan: return sx > sy;
        case spv::Op::OpSGreaterThanEqual: return sx >= sy;
        case spv::Op::OpIEqual: return x == y;
        case spv::Op::OpINotEqual: return x != y;
        default: return std::nullopt;
      }
    };
    uint64_t trips = 0;
    for (uint32_t i = *start; trips < kMaxCountedTrips; i += *step, ++trips) {
      const std::optional<bool> go = holds(i);
      if (!go) return std::nullopt;
      if (*go != go_on_true) break;
    }
    return trips;
  }

 private:
  // The comparison the header's branch leaves the loop on.
  const WordInstruction* exit_compare(const Loop& loop) {
    const BlockInfo& h = blocks_[loop.header];
    const WordInstruction& branch = *h.instructions.back();
    if (op_of(branch) != spv::Op::OpBranchConditional || branch.size() < 4) return nullptr;
    if (branch[3] != h.loop_merge && branch[2] != h.loop_merge) return nullptr;
    const auto compare = definition_.find(branch[1]);
    return compare == definition_.end() || compare->second->size() != 5 ? nullptr : compare->second;
  }

  // The header's phi that the exit comparison `cmp` tests: the loop's counter.
  const WordInstruction* counter_phi(const Loop& loop, const WordInstruction& cmp) {
    const WordInstruction* phi = nullptr;
    for (const WordInstruction* in : blocks_[loop.header].instructions)
      if (op_of(*in) == spv::Op::OpPhi && in->size() == 7 && (cmp[3] == (*in)[2] || cmp[4] == (*in)[2])) phi = in;
    return phi;
  }

  // The id of the loop's counter.
  std::optional<uint32_t> induction(const Loop& loop) {
    const WordInstruction* cmp = exit_compare(loop);
    const WordInstruction* phi = cmp ? counter_phi(loop, *cmp) : nullptr;
    return phi ? std::optional<uint32_t>((*phi)[2]) : std::nullopt;
  }

  // What `count` gives the blocks of one trip of the loop, each inner loop's
  // blocks counted over its trips (at most kMaxCountedTrips); nullopt when
  // an inner loop's trip count is unknown.
  template <class Count>
  std::optional<uint64_t> per_trip(const Loop& loop, const Count& count) {
    std::unordered_set<uint32_t> in_inner;
    uint64_t total = 0;
    for (const Loop* inner : inner_loops(loop)) {
      const std::optional<uint64_t> trips = trip_count(*inner), each = per_trip(*inner, count);
      if (!trips || !each) return std::nullopt;
      total += std::min(*trips, kMaxCountedTrips) * *each;
      in_inner.insert(inner->body.begin(), inner->body.end());
    }
    for (uint32_t b : loop.body)
      if (!in_inner.count(b)) total += count(blocks_[b]);
    return total;
  }

  // Whether the value `id` is computed from `source`, through any chain of
  // instructions (phis included).
  bool depends_on(uint32_t id, uint32_t source) const {
    std::unordered_set<uint32_t> seen;
    std::vector<uint32_t> pending{id};
    while (!pending.empty()) {
      const uint32_t v = pending.back();
      pending.pop_back();
      if (v == source) return true;
      if (!seen.insert(v).second) continue;
      const auto def = definition_.find(v);
      if (def == definition_.end()) continue;
      const WordInstruction& in = *def->second;
      // Past the result type and id: the operands, of which the ids are
      // those with a definition (literals name none, or by chance one that
      // only makes this answer yes more often).
      for (size_t w = 3; w < in.size(); ++w) pending.push_back(in[w]);
    }
    return false;
  }

  std::unordered_set<uint32_t> reachable_from(uint32_t from, const std::unordered_set<uint32_t>& stop) {
    return reached_from(from, stop, [&](uint32_t b) -> const std::vector<uint32_t>& { return blocks_[b].successors; });
  }

  // Whether `inner` sits in `outer` with no loop between them.
  bool immediately_inside(const Loop& inner, const Loop& outer) const {
    for (const Loop& between : loops_)
      if (&between != &inner && &between != &outer && outer.body.count(between.header) &&
          between.body.count(inner.header))
        return false;
    return true;
  }

  std::optional<uint32_t> constant(uint32_t id) const {
    const auto c = constant_.find(id);
    if (c == constant_.end()) return std::nullopt;
    return c->second;
  }

  std::unordered_map<uint32_t, BlockInfo> blocks_;
  std::unordered_map<uint32_t, uint32_t> constant_;  // 32-bit integer OpConstant id -> value
  std::unordered_map<uint32_t, const WordInstruction*> definition_;
  std::vector<Loop> loops_;
};

}  // namespace

std::unordered_map<uint32_t, uint32_t> loops_kept_rolled(const std::vector<uint32_t>& words) {
  const auto module = split_instructions(words);
  if (!module) return {};
  LoopNest nest(*module);
  std::unordered_map<uint32_t, uint32_t> rolled;  // header -> steps a trip
  for (const Loop& loop : nest.loops()) {
    if (nest.has_conditional_barrier(loop)) {
      rolled[loop.header] = 1;
    } else if (nest.has_barrier(loop)) {
      const std::optional<uint64_t> trips = nest.trip_count(loop);
      if (trips && *trips > kMaxUnrolledBarrierTrips) rolled[loop.header] = 1;
    } else {
      const std::optional<uint64_t> accesses = nest.unrolled_accesses(loop);
      if ((accesses && *accesses > kMaxUnrolledAccesses) || nest.is_nest_of_predicated_cells(loop)) {
        rolled[loop.header] = 1;
        continue;
      }
      const std::optional<uint64_t> accumulators = nest.accumulators(loop);
      const std::optional<uint64_t> trips = nest.trip_count(loop);
      if (!accumulators || *accumulators < 2 || *trips * *accumulators <= kMaxUnrolledAccumulations ||
          nest.asks_to_stay_rolled(loop))
        continue;
      uint64_t steps = std::clamp<uint64_t>(kMaxTripAccumulations / *accumulators, 1, kMaxStepsPerTrip);
      while (steps > 1 && *trips % steps > kMaxStepsLeftOver) --steps;
      rolled[loop.header] = uint32_t(steps);
    }
  }
  return rolled;
}

}  // namespace lanelab::frontend
