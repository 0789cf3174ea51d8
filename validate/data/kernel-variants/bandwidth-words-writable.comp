#version 450
// Variant (validate/data/kernel-variants/run-bandwidth-words.sh): each lane
// loads 4-byte words, not 16-byte vectors: a subgroup's load is one 128-byte
// line, as APSP's tile copies read, where bandwidth.comp's is four. The same
// bytes in four times the loads: whether L2's bandwidth to an SM is bytes or
// requests. This one without `readonly`, as APSP declares its matrix.
// Global-memory bandwidth: the grid reads the whole buffer (16-byte loads,
// consecutive lanes on consecutive addresses) PASSES times. Each pass adds its
// number to every word so that no pass can be folded into another.
// ROTATE shifts each pass's reads by an eighth of the grid's lanes: a lane
// then reads what lanes 1/8, 2/8 .. of the grid away read in the passes
// before, on other compute units, and its own words of a pass before only
// every 8 passes, so every pass comes from L2. Without it a lane reads the
// same words in every pass, which its compute unit's L1 still holds where
// the buffer's share of a compute unit fits there (within L2 that is most).
// The loop is kept (not unrolled into thousands of instructions that would
// miss the instruction cache): DontUnroll.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint PASSES = 4u;
layout(constant_id = 2) const uint VECTORS = 65536u;
layout(constant_id = 3) const bool ROTATE = false;

layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

void main() {
  const uint lane = gl_GlobalInvocationID.x;
  const uint lanes = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  const uint WORDS = VECTORS * 4u;
  uint sum = 0u;
  if (ROTATE) {
    uint shift = 0u;  // this pass's rotation, below VECTORS
    [[dont_unroll]] for (uint pass = 0u; pass < PASSES; ++pass) {
      [[dont_unroll]] for (uint i = lane; i < WORDS; i += lanes) {
        uint j = i + shift;
        if (j >= WORDS) j -= WORDS;
        sum += data[j] + pass;
      }
      shift = (shift + lanes / 8u) % WORDS;
    }
  } else {
    [[dont_unroll]] for (uint pass = 0u; pass < PASSES; ++pass)
      [[dont_unroll]] for (uint i = lane; i < WORDS; i += lanes) sum += data[i] + pass;
  }
  result[lane] = sum;
}
