#version 450
// Reduction step 4, last subgroup unrolled WITHOUT barriers, as the
// luminance shaders of parallel-reduction-compute-shader.md do: once 64
// partial sums remain, the last six steps run with no barrier, trusting the
// first 32 invocations to run in lockstep as one subgroup. That is a data race
// in the Vulkan memory model: invocation 0 reads sdata[16] while invocation 16
// may not have written it yet. It happens to give the right sum where one
// subgroup of >= 32 lanes executes the steps in order; with narrower
// subgroups (8 or 16 lanes) the result is wrong. Kept on purpose as the
// teaching point; reduce5_unrolled_barriers is the same made correct.
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
  if (tid < 16u) sdata[tid] += sdata[tid + 16u];
  if (tid < 8u) sdata[tid] += sdata[tid + 8u];
  if (tid < 4u) sdata[tid] += sdata[tid + 4u];
  if (tid < 2u) sdata[tid] += sdata[tid + 2u];
  if (tid < 1u) sdata[tid] += sdata[tid + 1u];

  if (tid == 0u) g_odata[group] = sdata[0];
}
