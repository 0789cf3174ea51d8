#version 450
// barrier_chain.comp with one exchange a trip of its rolled loop, 16 trips an
// iteration (run-barrier-trip.sh): what a rolled loop's taken back-edge adds
// to a chain of barriers, as APSP's k loops have one a step.
// Barrier cost: each exchange a shared store, a barrier,
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
  [[dont_unroll]] for (uint i = 0u; i < ITERATIONS * 16u; ++i) { STEP }
  result[gl_GlobalInvocationID.x] = x;
}
