#version 450
// kernels/reduction/reduce_final.comp cut to its loads: each lane sums its
// strided slice of the partials and the first writes its own sum, no
// shared array, no barrier (reduce-final-parts). Unchecked by design.
layout(local_size_x_id = 0) in;  // a power of two
layout(constant_id = 1) const uint PARTIAL_COUNT = 1u;
layout(constant_id = 2) const float SCALE = 1.0;

layout(set = 0, binding = 0) readonly buffer Partials { float partial[]; };
layout(set = 0, binding = 1) writeonly buffer Total { float total; };

shared float sdata[gl_WorkGroupSize.x];

void main() {
  uint tid = gl_LocalInvocationID.x;
  float sum = 0.0;
  for (uint i = tid; i < PARTIAL_COUNT; i += gl_WorkGroupSize.x) sum += partial[i];
  if (tid == 0u) total = sum * SCALE;
}
