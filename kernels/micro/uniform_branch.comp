#version 450
// What a uniform if/else costs: every lane runs ITERATIONS x 16 steps, each
// an if/else on a workgroup-uniform condition the compiler cannot know (the
// workgroup's parity), each side two shared-memory loads
// from two arrays, in the other order, and an add: the cell of APSP's phase
// 2 (kernels/apsp/blocked_fw_shared.comp, its pivot_row branch). BRANCH 0
// fixes the condition, so every workgroup takes the first side: the same
// loads and adds without the branch. BRANCH 2 tests another bit of the
// workgroup's index in each of four neighbouring steps, so that a compiler
// cannot merge neighbouring steps' branches into one (as it can merge
// BRANCH 1's sixteen). BRANCH 3 and 4 test a condition read from memory
// that no workgroup meets (offset is 0), so every workgroup takes the first
// side; BRANCH 4's untaken side reads a third word: whether the device
// pays for a side no lane takes (a compiler that predicates the if/else
// issues both sides' loads). The H100's driver predicates the two-load
// sides and branches around BRANCH 4's. Every load is conflict-free and
// none depends on a loaded value. The timing model predicates the same
// sides (branch_flattening.h) and has no parameter for what a kept branch
// adds; BRANCH 3 against BRANCH 0 gives what a load no lane performs costs
// (DeviceModel::shared_predicated_off_passes, set by hand from it), and
// `lanelab calibrate` fits nothing to these (validate/data/README.md says
// what the H100 shows and what was tried).
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 64u;
layout(constant_id = 2) const uint BRANCH = 1u;

layout(set = 0, binding = 0) buffer Constants { uint offset; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

const uint WORDS = 1024u;
shared uint words_a[WORDS];  // word i holds i
shared uint words_b[WORDS];  // word i holds 3 i

void main() {
  const uint lane = gl_LocalInvocationIndex;
  [[dont_unroll]] for (uint i = lane; i < WORDS; i += gl_WorkGroupSize.x) {
    words_a[i] = i + offset;
    words_b[i] = 3u * i + offset;
  }
  barrier();
  const bool no_offset = offset == 0u;
  uint x = 0u;
  [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
    [[unroll]] for (uint j = 0u; j < 16u; ++j) {
      // 32 lanes on 32 neighbouring words, the second read 16 words over.
      const uint p = (lane + (i * 16u + j) * 32u) % WORDS, q = p ^ 16u;
      const uint bit = BRANCH == 2u ? j % 4u : 0u;
      if (BRANCH == 0u || (BRANCH >= 3u ? no_offset : ((gl_WorkGroupID.x >> bit) & 1u) == 0u)) {
        x ^= words_b[p] + words_a[q];
      } else if (BRANCH == 4u) {
        x ^= words_a[p] + words_b[q] + words_a[p ^ 8u];
      } else {
        x ^= words_a[p] + words_b[q];
      }
    }
  }
  result[gl_GlobalInvocationID.x] = x;
}
