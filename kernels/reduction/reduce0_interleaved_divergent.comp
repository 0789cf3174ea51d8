#version 450
// Reduction step 0, interleaved addressing with divergent branches: at
// step s only invocations whose index is a multiple of 2s add, chosen with
// tid % (2s) == 0, so every subgroup keeps a few active lanes and the modulo
// is costly. Classic sequence of CUDA reduction kernels (Harris, "Optimizing
// Parallel Reduction in CUDA"), here around the luminance reduction of
// parallel-reduction-compute-shader.md.
layout(local_size_x_id = 0) in;  // a power of two

layout(set = 0, binding = 0) readonly buffer Input { float g_idata[]; };
layout(set = 0, binding = 1) writeonly buffer Partials { float g_odata[]; };
layout(set = 0, binding = 2) uniform Size { uint n; };

shared float sdata[gl_WorkGroupSize.x];

void main() {
  // Workgroups form a 2D grid when there are more than 65535 of them.
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (group * gl_WorkGroupSize.x >= n) return;  // past the last group: the whole workgroup leaves
  uint tid = gl_LocalInvocationID.x;
  uint i = group * gl_WorkGroupSize.x + tid;
  sdata[tid] = (i < n) ? g_idata[i] : 0.0;
  barrier();

  for (uint s = 1u; s < gl_WorkGroupSize.x; s *= 2u) {
    if (tid % (2u * s) == 0u) sdata[tid] += sdata[tid + s];
    barrier();
  }

  if (tid == 0u) g_odata[group] = sdata[0];
}
