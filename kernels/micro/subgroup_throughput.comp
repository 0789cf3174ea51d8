#version 450
// Subgroup-operation throughput: every lane runs four independent chains of
// subgroup operations, each step one operation and an integer add, so that
// with every compute unit full the operations overlap and the time is the
// subgroup unit's, not their latency's:
//   OP 0 shuffle (subgroupShuffleXor with lane ^ 1), 1 ballot.
// Cycles per operation per compute unit = what the timing model's subgroup
// pipe charges (subgroup_op_cycles). The chains end XOR-ed into one word per
// lane, checked on the CPU.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 64u;
layout(constant_id = 2) const uint OP = 0u;

layout(set = 0, binding = 0) buffer Constants { uint start; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

#define SHUFFLE(c) c = subgroupShuffleXor(c, 1u) + 1u;
#define BALLOT(c) c = (subgroupBallot(c != 0xffffffffu).x & 1u) + c;
#define ROUND(S) S(x0) S(x1) S(x2) S(x3)
#define X4(R) R R R R

void main() {
  const uint lane = gl_GlobalInvocationID.x;
  uint x0 = start + lane, x1 = x0 + 1u, x2 = x0 + 2u, x3 = x0 + 3u;
  if (OP == 0u) {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X4(ROUND(SHUFFLE)) }
  } else {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X4(ROUND(BALLOT)) }
  }
  result[lane] = x0 ^ x1 ^ x2 ^ x3;
}
