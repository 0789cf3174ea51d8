#version 450
// Variant (run-final-sums.sh): each invocation sums its strided slice of the
// partials twice, the second time over lines the first has just brought into
// L2 (2^26 and 2^28 floats: 512 KiB and 2 MiB of partials, more than an SM's
// L1), and the total is halved back (a power of two: exact). What the second
// loop adds is the time of a slice read from L2.
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
