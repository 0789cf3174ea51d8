#version 450
// (the correct tree: no step relies on lockstep execution). The total is
// multiplied by SCALE (1 for a sum; tile pixels / image pixels to turn tile
// averages into the image's mean luminance).
layout(local_size_x_id = 0) in;  // a power of two
layout(constant_id = 1) const uint PARTIAL_COUNT = 1u;
layout(constant_id = 2) const float SCALE = 1.0;

layout(set = 0, binding = 0) readonly buffer Partials { float partial[]; };
layout(set = 0, binding = 1) writeonly buffer Total { float total; };

shared float sdata[gl_WorkGroupSize.x];

void main() {
  uint tid = gl_LocalInvocationID.x;
  float sums[4];
  for (uint j = 0u; j < 4u; ++j) sums[j] = 0.0;
  uint i = tid;
  [[dont_unroll]] for (; i + 4u * gl_WorkGroupSize.x <= PARTIAL_COUNT; i += 4u * gl_WorkGroupSize.x)
    for (uint j = 0u; j < 4u; ++j) sums[j] += partial[i + j * gl_WorkGroupSize.x];
  for (; i < PARTIAL_COUNT; i += gl_WorkGroupSize.x) sums[0] += partial[i];
  float sum = 0.0;
  for (uint j = 0u; j < 4u; ++j) sum += sums[j];
  sdata[tid] = sum;
  barrier();
  for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    barrier();
  }
  if (tid == 0u) total = sdata[0] * SCALE;
}
