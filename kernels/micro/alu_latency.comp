#version 450
// ALU latency: every lane runs one dependent chain of 16 steps per loop
// iteration, each needing the previous result, so a subgroup's time per step
// is the latency of what a step issues: OP 0 one integer multiply-add, 1 one
// float fma, 2 an integer add and then a xor (the simple integer operations:
// add, logic, shift, compare, select), 3 a signed add and then a min (APSP's
// relaxation; one VIADDMNMX where the device fuses them, Hopper's DPX), 4 an
// or and a remainder by that run-time value (the device's division
// sequence; the chain falls to a fixed value, which the sequence's steps do
// not depend on).
// The constants come from a buffer so the compiler cannot fold the chain.
// The loop is kept (not unrolled into thousands of instructions that would
// miss the instruction cache): DontUnroll.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 1024u;
layout(constant_id = 2) const uint OP = 0u;

layout(set = 0, binding = 0) buffer Constants { uint mul_u; uint add_u; float mul_f; float add_f; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

#define INT_STEP x = x * mul_u + add_u;
#define FLOAT_STEP y = fma(y, mul_f, add_f);
#define ADD_XOR_STEP x = (x + mul_u) ^ add_u;
#define ADD_MIN_STEP z = min(z + int(mul_u), int(add_u));
#define REMAINDER_STEP x = add_u % (x | 1u);
#define X4(S) S S S S
#define X16(S) X4(S) X4(S) X4(S) X4(S)

void main() {
  const uint lane = gl_GlobalInvocationID.x;
  if (OP == 1u) {
    float y = float(lane);
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(FLOAT_STEP) }
    result[lane] = floatBitsToUint(y);
  } else if (OP == 3u) {
    int z = int(lane);
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(ADD_MIN_STEP) }
    result[lane] = uint(z);
  } else if (OP == 2u) {
    uint x = lane;
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(ADD_XOR_STEP) }
    result[lane] = x;
  } else if (OP == 4u) {
    uint x = lane;
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(REMAINDER_STEP) }
    result[lane] = x;
  } else {
    uint x = lane;
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(INT_STEP) }
    result[lane] = x;
  }
}
