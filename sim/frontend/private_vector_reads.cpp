#include "sim/frontend/private_vector_reads.h"

#include <unordered_map>
#include <unordered_set>

#include "sim/frontend/spirv_words.h"

namespace lanelab::frontend {

PrivateVectorReadsResult extract_private_vector_reads(const std::vector<uint32_t>& words) {
  return rewrite_module<PrivateVectorReadsResult>(
      words, [&](const std::vector<WordInstruction>& module, PrivateVectorReadsResult& result) {
    std::unordered_set<uint32_t> vector_types;
    std::unordered_map<uint32_t, uint32_t> pointee;         // pointer type -> the type it points to
    std::unordered_map<uint32_t, uint32_t> vector_of_variable;  // private vector variable -> its vector type
    for (const WordInstruction& in : module) {
      const spv::Op op = op_of(in);
      if (op == spv::Op::OpTypeVector && in.size() >= 2) vector_types.insert(in[1]);
      if (op == spv::Op::OpTypePointer && in.size() >= 4) pointee[in[1]] = in[3];
      if (op == spv::Op::OpVariable && in.size() >= 4 &&
          (in[3] == uint32_t(spv::StorageClass::Function) || in[3] == uint32_t(spv::StorageClass::Private))) {
        auto it = pointee.find(in[1]);
        if (it != pointee.end() && vector_types.count(it->second)) vector_of_variable[in[2]] = it->second;
      }
    }
    // Chains one run-time index into such a vector: chain id -> (variable, index id).
    std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> component_chains;
    for (const WordInstruction& in : module) {
      const spv::Op op = op_of(in);
      if (is_access_chain(op) && in.size() == 5 &&
          vector_of_variable.count(in[3]))
        component_chains[in[2]] = {in[3], in[4]};
    }

    uint32_t bound = words[3];
    std::vector<WordInstruction> out;
    for (const WordInstruction& in : module) {
      if (op_of(in) == spv::Op::OpLoad && in.size() == 4 && component_chains.count(in[3])) {
        const auto [variable, index] = component_chains.at(in[3]);
        const uint32_t whole = bound++;
        out.push_back(make_instruction(spv::Op::OpLoad, {vector_of_variable.at(variable), whole, variable}));
        out.push_back(make_instruction(spv::Op::OpVectorExtractDynamic, {in[1], in[2], whole, index}));
        ++result.rewritten;
        continue;
      }
      out.push_back(in);
    }
    result.words.assign(words.begin(), words.begin() + 5);
    result.words[3] = bound;
    for (const WordInstruction& in : out) result.words.insert(result.words.end(), in.begin(), in.end());
  });
}

}  // namespace lanelab::frontend
