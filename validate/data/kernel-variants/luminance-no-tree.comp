#version 450
// VARIANT (kernel-variants/luminance-no-tree.comp): the fetches, the shared store and its barrier, then the first lane stores its own word: no halving steps
// Luminance of an image reduced per workgroup in shared memory: the sequence
// of compute shaders in parallel-reduction-compute-shader.md (HLSL there,
// GLSL here). Each invocation fetches FETCH_X pixels in each of FETCH_Y rows,
// converts them to luminance and stores the sum (or, with
// SHARED_PER_THREAD = 2, the two halves of its fetches: "2x shared memory")
// in shared memory; the workgroup then halves the array with barriers down to
// 64 entries and, exactly as the document does, finishes the last 32 steps
// unrolled WITHOUT barriers: correct only while those 32 invocations run in
// lockstep as one subgroup. Invocation 0 writes the tile's average, as the
// document's Result[Gid.xy] = sum / (THREADX * THREADY * fetches).
// Differences from the document: pixels outside the image count as 0 (the
// document relies on D3D's zero for out-of-range reads of 1080 = 67.5 * 16
// rows), and the 16-fetch shader reads 8 pixels in each of 2 rows as its
// comments intend (its code reads 16 consecutive pixels from x*8, overlapping
// its neighbour and skipping every second row).
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // THREADX, THREADY
layout(constant_id = 2) const uint FETCH_X = 2u;
layout(constant_id = 3) const uint FETCH_Y = 1u;
layout(constant_id = 4) const uint SHARED_PER_THREAD = 1u;

layout(set = 0, binding = 0) readonly buffer Input { vec4 pixels[]; };
layout(set = 0, binding = 1) writeonly buffer Result { float tile_average[]; };
layout(set = 0, binding = 2) uniform cbCS {
  uint c_height;
  uint c_width;  // size of the view port
};

const uint GROUP_THREADS = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
const uint FETCHES = FETCH_X * FETCH_Y;
shared float sharedMem[GROUP_THREADS * SHARED_PER_THREAD];

const vec4 LumVector = vec4(0.2125, 0.7154, 0.0721, 0.0);

float luminance(uint x, uint y) {
  if (x >= c_width || y >= c_height) return 0.0;
  return dot(pixels[y * c_width + x], LumVector);
}

void main() {
  uint GI = gl_LocalInvocationIndex;
  uint x0 = gl_GlobalInvocationID.x * FETCH_X;
  uint y0 = gl_GlobalInvocationID.y * FETCH_Y;

  float first_half = 0.0;
  float second_half = 0.0;
  for (uint f = 0u; f < FETCHES; ++f) {
    float l = luminance(x0 + f % FETCH_X, y0 + f / FETCH_X);
    if (SHARED_PER_THREAD == 2u && f >= FETCHES / 2u) {
      second_half += l;
    } else {
      first_half += l;
    }
  }
  if (SHARED_PER_THREAD == 2u) {
    sharedMem[GI * 2u] = first_half;
    sharedMem[GI * 2u + 1u] = second_half;
  } else {
    sharedMem[GI] = first_half;
  }
  // wait until everything is transferred from device memory to shared memory
  barrier();

  // Have the first thread write out the result for each thread group
  if (GI == 0u) {
    tile_average[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] =
        sharedMem[0] / float(GROUP_THREADS * FETCHES);
  }
}
