#version 450
// Reduction with subgroupAdd: after the first add during load, each subgroup
// sums its lanes in registers with one subgroupAdd; one lane per subgroup
// stores the subgroup's sum in shared memory; after one barrier the first
// subgroup adds those sums (a strided loop when there are more subgroups than
// lanes) with a second subgroupAdd. One barrier in all, any subgroup size.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x_id = 0) in;  // a power of two

layout(set = 0, binding = 0) readonly buffer Input { float g_idata[]; };
layout(set = 0, binding = 1) writeonly buffer Partials { float g_odata[]; };
layout(set = 0, binding = 2) uniform Size { uint n; };

shared float subgroup_sums[gl_WorkGroupSize.x];

void main() {
  // Workgroups form a 2D grid when there are more than 65535 of them.
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (group * gl_WorkGroupSize.x * 2u >= n) return;  // past the last group: the whole workgroup leaves
  uint tid = gl_LocalInvocationID.x;
  uint i = group * (gl_WorkGroupSize.x * 2u) + tid;
  float a = (i < n) ? g_idata[i] : 0.0;
  float b = (i + gl_WorkGroupSize.x < n) ? g_idata[i + gl_WorkGroupSize.x] : 0.0;

  float sum = subgroupAdd(a + b);
  if (subgroupElect()) subgroup_sums[gl_SubgroupID] = sum;
  barrier();

  if (gl_SubgroupID == 0u) {
    float partial = 0.0;
    for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) partial += subgroup_sums[s];
    partial = subgroupAdd(partial);
    if (subgroupElect()) g_odata[group] = partial;
  }
  // Variant (run-late-store-barrier.sh): every subgroup waits here until the
  // first has issued its store, so that none leaves before it.
  barrier();
}
