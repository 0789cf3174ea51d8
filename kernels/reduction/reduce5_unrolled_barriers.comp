#version 450
// Reduction step 4 made correct: the same unrolled last six steps, each
// followed by a barrier that every invocation of the workgroup reaches (the
// barrier stands outside the if, so control flow stays uniform). Correct for
// any subgroup size; the barriers are the price of not relying on lockstep.
// Needs gl_WorkGroupSize.x >= 64.
layout(local_size_x_id = 0) in;  // a power of two

layout(set = 0, binding = 0) readonly buffer Input { float g_idata[]; };
layout(set = 0, binding = 1) writeonly buffer Partials { float g_odata[]; };
layout(set = 0, binding = 2) uniform Size { uint n; };

shared float sdata[gl_WorkGroupSize.x];

void main() {
  // Workgroups form a 2D grid when there are more than 65535 of them.
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (group * gl_WorkGroupSize.x * 2u >= n) return;  // past the last group: the whole workgroup leaves
  uint tid = gl_LocalInvocationID.x;
  uint i = group * (gl_WorkGroupSize.x * 2u) + tid;
  float a = (i < n) ? g_idata[i] : 0.0;
  float b = (i + gl_WorkGroupSize.x < n) ? g_idata[i + gl_WorkGroupSize.x] : 0.0;
  sdata[tid] = a + b;
  barrier();

  for (uint s = gl_WorkGroupSize.x / 2u; s > 32u; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    barrier();
  }

  if (tid < 32u) sdata[tid] += sdata[tid + 32u];
  barrier();
  if (tid < 16u) sdata[tid] += sdata[tid + 16u];
  barrier();
  if (tid < 8u) sdata[tid] += sdata[tid + 8u];
  barrier();
  if (tid < 4u) sdata[tid] += sdata[tid + 4u];
  barrier();
  if (tid < 2u) sdata[tid] += sdata[tid + 2u];
  barrier();
  if (tid < 1u) sdata[tid] += sdata[tid + 1u];

  if (tid == 0u) g_odata[group] = sdata[0];
}
