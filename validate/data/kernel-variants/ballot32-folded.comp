#version 450
// Ballot32: row i of the transpose is bit i of all 32 rows, which one
// subgroupBallot collects at once. The kernel ballots all 32 bits and each
// lane keeps the vote for its own row behind a branch (`i == row_ix`): the
// document blames that branching for Ballot32's poor speed. Needs
// gl_SubgroupSize to be a multiple of 32 (a 64-lane subgroup holds two
// matrices, in vote.x and vote.y); otherwise it transposes nothing and
// records the size in `status`. Lanes are assumed to be consecutive local
// invocations.
// Source: transpose-bit-matrices-simd-vs-threadgroup.md, kernel Ballot32.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Matrices { uint rows[]; };
layout(set = 0, binding = 1) uniform Params {
  uint num_matrices;
  uint repetitions;
};
layout(set = 0, binding = 2) buffer Status { uint unsupported_subgroup_size; };

void main() {
  if ((gl_SubgroupSize & 31u) != 0u) {
    if (gl_LocalInvocationIndex == 0u) unsupported_subgroup_size = gl_SubgroupSize;
    return;
  }
  uint element = gl_GlobalInvocationID.x;
  if ((element >> 5) >= num_matrices) return;  // whole matrices leave together
  uint row_ix = gl_SubgroupInvocationID & 31u;
  uint local_matrix = 0u;  // variant: gl_SubgroupInvocationID >> 5 folded for 32-wide subgroups
  uint row = rows[element];

  for (uint rep = 0u; rep < repetitions; ++rep) {
    uint output_row = 0u;
    for (uint i = 0u; i < 32u; ++i) {
      uvec4 vote = subgroupBallot((row & (1u << i)) != 0u);
      if (i == row_ix) {
        output_row = vote[local_matrix];
      }
    }
    row = output_row;
  }

  rows[element] = row;
}
