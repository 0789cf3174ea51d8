#version 450
// shared_chase.comp with two steps a trip of its rolled loop (run-loop-trip.sh).
// Shared-memory latency:
// which holds its own index, 16 times per iteration, each load's address the
// previous load's value. With 32 banks of 4 bytes, a power-of-two STRIDE puts
// STRIDE lanes of 32 in one bank: a STRIDE-way conflict (1 = none).
// The loop is kept (not unrolled into thousands of instructions that would
// miss the instruction cache): DontUnroll.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 1024u;
layout(constant_id = 2) const uint STRIDE = 1u;

layout(set = 0, binding = 0) buffer Constants { uint offset; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

const uint WORDS = 1024u;
shared uint words[WORDS];

#define STEP x = words[x];
#define X4(S) S S S S
#define X16(S) X4(S) X4(S) X4(S) X4(S)

void main() {
  const uint lane = gl_LocalInvocationIndex;
  [[dont_unroll]] for (uint i = lane; i < WORDS; i += gl_WorkGroupSize.x) words[i] = i + offset;
  barrier();
  uint x = (lane * STRIDE) % WORDS;
  [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { STEP STEP }
  result[gl_GlobalInvocationID.x] = x;
}
