#include "sim/frontend/subgroup_size_folding.h"

#include <map>
#include <unordered_set>

#include "sim/frontend/spirv_words.h"

namespace lanelab::frontend {

SubgroupFoldingResult fold_subgroup_size(const std::vector<uint32_t>& words, uint32_t subgroup_size) {
  SubgroupFoldingResult result;
  auto split = split_instructions(words);
  if (!split || subgroup_size == 0) {
    result.words = words;
    return result;
  }
  std::vector<WordInstruction>& module = *split;

  std::unordered_set<uint32_t> size_variables, int32_types;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> constant_of_value;  // (type, value) -> id
  for (const WordInstruction& in : module) {
    const spv::Op op = op_of(in);
    if (op == spv::Op::OpDecorate && in.size() == 4 && in[2] == uint32_t(spv::Decoration::BuiltIn) &&
        in[3] == uint32_t(spv::BuiltIn::SubgroupSize))
      size_variables.insert(in[1]);
    if (op == spv::Op::OpTypeInt && in[2] == 32) int32_types.insert(in[1]);
    if (op == spv::Op::OpConstant && in.size() == 4 && int32_types.count(in[1]))
      constant_of_value.emplace(std::make_pair(in[1], in[3]), in[2]);
  }
  if (size_variables.empty()) {
    result.words = words;
    return result;
  }

  uint32_t bound = words[3];
  std::vector<WordInstruction> new_constants;
  auto constant = [&](uint32_t type, uint32_t value) {
    auto [it, added] = constant_of_value.emplace(std::make_pair(type, value), bound);
    if (added) new_constants.push_back(make_instruction(spv::Op::OpConstant, {type, bound++, value}));
    return it->second;
  };

  for (WordInstruction& in : module)
    if (op_of(in) == spv::Op::OpLoad && in.size() >= 4 && int32_types.count(in[1]) && size_variables.count(in[3])) {
      in = make_instruction(spv::Op::OpCopyObject, {in[1], in[2], constant(in[1], subgroup_size)});
      ++result.folded;
    }

  result.words = module_words(words, bound, module, new_constants);
  return result;
}

}  // namespace lanelab::frontend
