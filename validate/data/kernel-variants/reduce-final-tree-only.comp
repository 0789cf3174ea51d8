#version 450
// kernels/reduction/reduce_final.comp without its loads: the shared array's
// tree over each lane's index, with its barriers, and the store
// (reduce-final-parts). Unchecked by design.
layout(local_size_x_id = 0) in;  // a power of two
layout(constant_id = 1) const uint PARTIAL_COUNT = 1u;
layout(constant_id = 2) const float SCALE = 1.0;

layout(set = 0, binding = 0) readonly buffer Partials { float partial[]; };
layout(set = 0, binding = 1) writeonly buffer Total { float total; };

shared float sdata[gl_WorkGroupSize.x];

void main() {
  uint tid = gl_LocalInvocationID.x;
  sdata[tid] = float(tid);
  barrier();
  for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    barrier();
  }
  if (tid == 0u) total = sdata[0] * SCALE;
}
