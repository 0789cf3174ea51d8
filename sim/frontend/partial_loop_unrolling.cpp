#include "sim/frontend/partial_loop_unrolling.h"

#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "sim/frontend/spirv_words.h"

namespace lanelab::frontend {
namespace {

// Only short bodies of run-time loops are unrolled (a bound of ours; the
// reductions' second pass has four instructions): a long body has work of
// its own to issue while its loads are in flight.
constexpr size_t kMaxBodyInstructions = 48;

// Which words of `in` (after its opcode word) are ids, by the grammar's
// operand kinds: a kind starting with "Id" is one; "*" repeats the last kind.
// Words past the kinds (a memory-access mask's literals) are not.
std::vector<bool> id_words(const WordInstruction& in) {
  std::vector<bool> ids(in.size(), false);
  std::istringstream kinds(opcode_info(uint16_t(op_of(in))).operand_kinds);
  std::string kind;
  size_t w = 1;
  while (w < in.size() && kinds >> kind) {
    const bool repeated = kind.back() == '*';
    const bool id = kind.rfind("Id", 0) == 0;
    if (repeated) {
      for (; w < in.size(); ++w) ids[w] = id;
      break;
    }
    ids[w++] = id;
  }
  return ids;
}

using Block = WordBlock;

struct ModuleFacts {
  std::unordered_map<uint32_t, uint32_t> constant_value;  // 32-bit OpConstant id -> value
  std::unordered_set<uint32_t> decorated;
};

// What the loop headed by blocks[h] is, when it has the shape unrolled here.
struct UnrollableLoop {
  size_t header = 0, body = 0, preheader = 0;
  std::vector<WordInstruction> phis;
  WordInstruction compare;
  uint32_t induction = 0, bound = 0, step = 0;
  bool induction_first = true;  // `i < n` rather than `n > i`
};

// `known_trips`: the loop is one rolled_loops.h unrolls a few steps a trip,
// its bound may be a constant and its body long.
std::optional<UnrollableLoop> unrollable_loop(const std::vector<Block>& blocks, size_t h, const ModuleFacts& facts,
                                              uint32_t factor, bool known_trips) {
  const std::vector<WordInstruction>& hi = blocks[h].instructions;
  if (hi.size() < 4) return std::nullopt;
  const WordInstruction& merge = hi[hi.size() - 2];
  const WordInstruction& branch = hi.back();
  if (op_of(merge) != spv::Op::OpLoopMerge || merge.size() < 4 ||
      (merge[3] & uint32_t(spv::LoopControlMask::DontUnroll)) || op_of(branch) != spv::Op::OpBranchConditional ||
      branch[2] != merge[2] || branch[3] != merge[1])
    return std::nullopt;
  UnrollableLoop loop;
  loop.header = h;
  size_t k = 1;
  for (; k < hi.size() && op_of(hi[k]) == spv::Op::OpPhi; ++k) {
    if (hi[k].size() != 7) return std::nullopt;
    loop.phis.push_back(hi[k]);
  }
  // Between the phis and the merge, source lines and the one comparison.
  while (k + 2 < hi.size() && (op_of(hi[k]) == spv::Op::OpLine || op_of(hi[k]) == spv::Op::OpNoLine)) ++k;
  if (k + 3 != hi.size() || hi[k].size() != 5 || hi[k][2] != branch[1]) return std::nullopt;
  loop.compare = hi[k];
  switch (op_of(loop.compare)) {
    case spv::Op::OpULessThan: case spv::Op::OpSLessThan: loop.induction_first = true; break;
    case spv::Op::OpUGreaterThan: case spv::Op::OpSGreaterThan: loop.induction_first = false; break;
    default: return std::nullopt;
  }
  loop.induction = loop.compare[loop.induction_first ? 3 : 4];
  loop.bound = loop.compare[loop.induction_first ? 4 : 3];

  auto at = [&](uint32_t label) {
    for (size_t b = 0; b < blocks.size(); ++b)
      if (blocks[b].label() == label) return b;
    return blocks.size();
  };
  loop.body = at(merge[2]);
  if (loop.body == blocks.size()) return std::nullopt;
  const std::vector<WordInstruction>& body = blocks[loop.body].instructions;
  if (body.size() < 2 || (!known_trips && body.size() - 2 > kMaxBodyInstructions) || op_of(body.back()) != spv::Op::OpBranch ||
      body.back()[1] != blocks[h].label())
    return std::nullopt;
  std::unordered_set<uint32_t> defined_in_loop;
  for (const WordInstruction& in : hi)
    if (op_of(in) == spv::Op::OpPhi || &in == &hi[k]) defined_in_loop.insert(in[2]);
  for (size_t b = 1; b + 1 < body.size(); ++b) {
    const WordInstruction& in = body[b];
    switch (op_of(in)) {
      case spv::Op::OpPhi: case spv::Op::OpControlBarrier: case spv::Op::OpMemoryBarrier:
      case spv::Op::OpFunctionCall: case spv::Op::OpSelectionMerge: case spv::Op::OpLoopMerge:
        return std::nullopt;
      default: break;
    }
    if (const size_t result = result_word(in)) {
      if (facts.decorated.count(in[result])) return std::nullopt;
      defined_in_loop.insert(in[result]);
    }
  }
  if (defined_in_loop.count(loop.bound)) return std::nullopt;

  // Every phi enters from one block outside the loop, by its only branch.
  uint32_t preheader_label = 0;
  uint32_t start = 0, next = 0;
  for (const WordInstruction& phi : loop.phis) {
    const bool back_first = phi[4] == body.front()[1];
    if (!back_first && phi[6] != body.front()[1]) return std::nullopt;
    const uint32_t outside = back_first ? phi[6] : phi[4];
    if (preheader_label != 0 && outside != preheader_label) return std::nullopt;
    preheader_label = outside;
    if (phi[2] == loop.induction) {
      start = back_first ? phi[5] : phi[3];
      next = back_first ? phi[3] : phi[5];
    }
  }
  if (start == 0) return std::nullopt;
  loop.preheader = at(preheader_label);
  if (loop.preheader == blocks.size() || op_of(blocks[loop.preheader].instructions.back()) != spv::Op::OpBranch)
    return std::nullopt;
  // A trip count that the module already knows is spirv-opt's to unroll, or the module's to keep.
  if (!known_trips && facts.constant_value.count(start) && facts.constant_value.count(loop.bound)) return std::nullopt;
  // `next` is i + step, step a positive constant.
  for (size_t b = 1; b + 1 < body.size(); ++b) {
    const WordInstruction& in = body[b];
    if (op_of(in) != spv::Op::OpIAdd || in[2] != next) continue;
    const uint32_t other = in[3] == loop.induction ? in[4] : in[4] == loop.induction ? in[3] : 0;
    auto step = facts.constant_value.find(other);
    if (step != facts.constant_value.end()) loop.step = step->second;
  }
  if (loop.step == 0 || uint64_t(factor - 1) * loop.step > 0x7fffffffu) return std::nullopt;
  return loop;
}

// The unrolled loop, as blocks to go before the loop as written, which it
// then enters in place of the preheader.
std::vector<Block> unrolled_blocks(std::vector<Block>& blocks, const UnrollableLoop& loop, uint32_t factor,
                                   uint32_t& bound, std::vector<WordInstruction>& new_constants) {
  const uint32_t header_label = blocks[loop.header].label();
  const uint32_t body_label = blocks[loop.body].label();
  const uint32_t preheader_label = blocks[loop.preheader].label();
  const uint32_t unrolled_header = bound++, unrolled_body = bound++, unrolled_exit = bound++;
  auto back_of = [&](const WordInstruction& phi) { return phi[4] == body_label ? phi[3] : phi[5]; };
  auto entering_of = [&](const WordInstruction& phi) { return phi[4] == body_label ? phi[5] : phi[3]; };

  // Each copy of the body reads the phis' values as the copy before left them.
  std::unordered_map<uint32_t, uint32_t> header_phi, current;  // the loop's phi id -> id
  for (const WordInstruction& phi : loop.phis) header_phi[phi[2]] = current[phi[2]] = bound++;
  Block body{{make_instruction(spv::Op::OpLabel, {unrolled_body})}};
  const std::vector<WordInstruction>& written = blocks[loop.body].instructions;
  for (uint32_t copy = 0; copy < factor; ++copy) {
    std::unordered_map<uint32_t, uint32_t> renamed = current;
    auto value = [&](uint32_t id) {
      auto it = renamed.find(id);
      return it == renamed.end() ? id : it->second;
    };
    for (size_t b = 1; b + 1 < written.size(); ++b) {
      WordInstruction in = written[b];
      const std::vector<bool> ids = id_words(in);
      const size_t result = result_word(in);
      for (size_t w = 1; w < in.size(); ++w)
        if (ids[w] && w != result) in[w] = value(in[w]);
      if (result != 0) {
        renamed[written[b][result]] = bound;
        in[result] = bound++;
      }
      body.instructions.push_back(std::move(in));
    }
    for (const WordInstruction& phi : loop.phis) current[phi[2]] = value(back_of(phi));
  }
  body.instructions.push_back(make_instruction(spv::Op::OpBranch, {unrolled_header}));

  // The header: the phis, then `i < n && n - i > (factor - 1) * step`.
  Block header{{make_instruction(spv::Op::OpLabel, {unrolled_header})}};
  uint32_t induction_type = 0;
  for (const WordInstruction& phi : loop.phis) {
    header.instructions.push_back(make_instruction(spv::Op::OpPhi, {phi[1], header_phi[phi[2]], entering_of(phi),
                                                                    preheader_label, current[phi[2]], unrolled_body}));
    if (phi[2] == loop.induction) induction_type = phi[1];
  }
  const uint32_t bool_type = loop.compare[1];
  const uint32_t span = bound++, in_range = bound++, remaining = bound++, room = bound++, go = bound++;
  new_constants.push_back(make_instruction(spv::Op::OpConstant, {induction_type, span, (factor - 1) * loop.step}));
  WordInstruction compare = loop.compare;
  compare[2] = in_range;
  compare[loop.induction_first ? 3 : 4] = header_phi[loop.induction];
  header.instructions.push_back(compare);
  header.instructions.push_back(
      make_instruction(spv::Op::OpISub, {induction_type, remaining, loop.bound, header_phi[loop.induction]}));
  header.instructions.push_back(make_instruction(spv::Op::OpUGreaterThan, {bool_type, room, remaining, span}));
  header.instructions.push_back(make_instruction(spv::Op::OpLogicalAnd, {bool_type, go, in_range, room}));
  header.instructions.push_back(make_instruction(spv::Op::OpLoopMerge, {unrolled_exit, unrolled_body, 0}));
  header.instructions.push_back(make_instruction(spv::Op::OpBranchConditional, {go, unrolled_body, unrolled_exit}));

  // The loop as written takes over from the unrolled one's exit.
  Block exit{{make_instruction(spv::Op::OpLabel, {unrolled_exit}),
              make_instruction(spv::Op::OpBranch, {header_label})}};
  for (WordInstruction& in : blocks[loop.header].instructions) {
    if (op_of(in) != spv::Op::OpPhi) continue;
    const size_t pair = in[4] == preheader_label ? 3 : 5;
    in[pair] = header_phi[in[2]];
    in[pair + 1] = unrolled_exit;
  }
  blocks[loop.preheader].instructions.back()[1] = unrolled_header;
  return {std::move(header), std::move(body), std::move(exit)};
}

}  // namespace

PartialUnrollingResult unroll_loops_partly(const std::vector<uint32_t>& words, uint32_t runtime_factor,
                                           const std::unordered_map<uint32_t, uint32_t>& steps_per_trip) {
  return rewrite_module<PartialUnrollingResult>(
      words, [&](const std::vector<WordInstruction>& module, PartialUnrollingResult& result) {
    ModuleFacts facts;
    std::unordered_set<uint32_t> int32_types;
    for (const WordInstruction& in : module) {
      const spv::Op op = op_of(in);
      if (op == spv::Op::OpTypeInt && in.size() >= 3 && in[2] == 32) int32_types.insert(in[1]);
      if (op == spv::Op::OpConstant && in.size() == 4 && int32_types.count(in[1])) facts.constant_value[in[2]] = in[3];
      if ((op == spv::Op::OpDecorate || op == spv::Op::OpMemberDecorate) && in.size() >= 2)
        facts.decorated.insert(in[1]);
    }
    uint32_t bound = words[3];
    std::vector<WordInstruction> new_constants;
    const std::vector<WordInstruction> out = rewrite_function_blocks<Block>(module, [&](std::vector<Block>& blocks) {
      for (size_t h = blocks.size(); h-- > 0;) {
        const auto steps = steps_per_trip.find(blocks[h].label());
        const bool known_trips = steps != steps_per_trip.end();
        // A loop whose trip count only the run knows gets, after its trips
        // of runtime_factor steps, one of half as many, and so on down to 2
        // (the header).
        size_t header = h;
        for (uint32_t factor = known_trips ? steps->second : runtime_factor; factor >= 2;
             factor = known_trips ? 1 : factor / 2) {
          const std::optional<UnrollableLoop> loop = unrollable_loop(blocks, header, facts, factor, known_trips);
          if (!loop) break;
          std::vector<Block> added = unrolled_blocks(blocks, *loop, factor, bound, new_constants);
          blocks.insert(blocks.begin() + std::ptrdiff_t(header), added.begin(), added.end());
          header += added.size();
          ++result.unrolled;
        }
      }
    });
    result.words = module_words(words, bound, out, new_constants);
  });
}

}  // namespace lanelab::frontend
