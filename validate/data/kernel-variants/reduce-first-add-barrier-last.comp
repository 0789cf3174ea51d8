#version 450
// Reduction step 3, first add during load: each workgroup covers twice
// as many elements and every invocation adds two of them while loading, so
// no invocation idles in the first step. Then sequential addressing.
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

  for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    barrier();
  }

  if (tid == 0u) g_odata[group] = sdata[0];
  // Variant (run-late-store-barrier.sh): every subgroup waits here until the
  // first has issued its store, so that none leaves before it.
  barrier();
}
