#version 450
layout(constant_id = 1) const uint PARTIAL_COUNT = 1u;
layout(constant_id = 2) const float SCALE = 1.0;

layout(set = 0, binding = 0) readonly buffer Partials { float partial[]; };
layout(set = 0, binding = 1) writeonly buffer Total { float total; };

shared float sdata[gl_WorkGroupSize.x];

void main() {
  uint tid = gl_LocalInvocationID.x;
  float sum = 0.0;
  for (uint i = tid; i < PARTIAL_COUNT; i += gl_WorkGroupSize.x) sum += partial[i];
  barrier();
  for (uint i = tid; i < PARTIAL_COUNT; i += gl_WorkGroupSize.x) sum += partial[i];
  sdata[tid] = sum * 0.5;
  barrier();
  for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    barrier();
  }
  if (tid == 0u) total = sdata[0] * SCALE;
}
