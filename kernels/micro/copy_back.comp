#version 450
// dispatch_copy: each lane reads its word of the result buffer and writes it
// back plus one, so that each of a sequence of dependent dispatches reads
// what the one before wrote, as APSP's phases read the tiles the phase
// before wrote back.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };

void main() {
  const uint lane = gl_GlobalInvocationID.x;
  result[lane] = result[lane] + 1u;
}
