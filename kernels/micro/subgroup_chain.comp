#version 450
// Subgroup operation latency: a dependent chain of 16 subgroup operations per
// iteration, each followed by an integer add that the calibration subtracts:
// OP 0 shuffle (subgroupShuffleXor with lane ^ 1), 1 ballot, 2 reduce (subgroupMax).
// The loop is kept (not unrolled into thousands of instructions that would
// miss the instruction cache): DontUnroll.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 1024u;
layout(constant_id = 2) const uint OP = 0u;

layout(set = 0, binding = 0) buffer Constants { uint start; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

#define SHUFFLE x = subgroupShuffleXor(x, 1u) + 1u;
#define BALLOT x = (subgroupBallot(x != 0xffffffffu).x & 1u) + x;
#define REDUCE x = subgroupMax(x) + 1u;
#define X4(S) S S S S
#define X16(S) X4(S) X4(S) X4(S) X4(S)

void main() {
  const uint lane = gl_GlobalInvocationID.x;
  if (OP == 0u) {
    uint x = start + lane;
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(SHUFFLE) }
    result[lane] = x;
  } else if (OP == 1u) {
    uint x = start + lane;
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(BALLOT) }
    result[lane] = x;
  } else {
    uint x = start;
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(REDUCE) }
    result[lane] = x;
  }
}
