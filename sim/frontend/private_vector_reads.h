#pragma once
// A private vector read at a run-time index (Ballot32's `vote[local_matrix]`)
// is, to a GPU compiler, a vector in registers and a pick among them: no
// memory, nothing that can fail, so a branch around it may be predicated
// (the H100 runs Ballot32 as written exactly as fast as with the read in a
// select: validate/data/README.md). SPIR-V writes it as an access chain into
// a Function variable and a load. This pass rewrites each such read as a
// load of the whole vector and an OpVectorExtractDynamic (whose result, at an
// index past the end, is undefined rather than a fault), which lets the
// optimizer keep the vector in SSA registers and the branch flattening
// (branch_flattening.h) predicate the branch.
#include <cstdint>
#include <vector>

namespace lanelab::frontend {

struct PrivateVectorReadsResult {
  std::vector<uint32_t> words;
  uint32_t rewritten = 0;  // reads turned into a whole load and an extract
};

PrivateVectorReadsResult extract_private_vector_reads(const std::vector<uint32_t>& words);

}  // namespace lanelab::frontend
