#version 450
// Barrier cost: 16 exchanges per iteration, each a shared store, a barrier,
// the neighbour's load and another barrier (so that no barrier can be merged
// with the next); the calibration subtracts the shared load and the add.
// The loop is kept (not unrolled into thousands of instructions that would
// miss the instruction cache): DontUnroll.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 64u;

layout(set = 0, binding = 0) buffer Constants { uint start; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

shared uint slots[1024];

#define STEP slots[lane] = x; barrier(); x = slots[next] + 1u; barrier();
#define X4(S) S S S S
#define X16(S) X4(S) X4(S) X4(S) X4(S)

void main() {
  const uint lane = gl_LocalInvocationIndex;
  const uint next = (lane + 1u) % gl_WorkGroupSize.x;
  uint x = start + lane;
  [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(STEP) }
  result[gl_GlobalInvocationID.x] = x;
}
