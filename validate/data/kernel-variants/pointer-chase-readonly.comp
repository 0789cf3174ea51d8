#version 450
// Global-memory latency: one lane follows a random cycle through the buffer,
// one 128-byte line per step, 16 dependent loads per iteration. A working set
// within L2 measures L2 latency; a larger one DRAM latency.
// The loop is kept (not unrolled into thousands of instructions that would
// miss the instruction cache): DontUnroll.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x = 1) in;
layout(constant_id = 1) const uint ITERATIONS = 1024u;

// Variant (run-chase-readonly.sh): the buffer readonly, so that the driver
// loads it through the non-coherent path (LDG.E.CONSTANT).
layout(set = 0, binding = 0) readonly buffer Next { uint next[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

#define STEP x = next[x];
#define X4(S) S S S S
#define X16(S) X4(S) X4(S) X4(S) X4(S)

void main() {
  uint x = 0u;
  [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(STEP) }
  result[0] = x;
}
