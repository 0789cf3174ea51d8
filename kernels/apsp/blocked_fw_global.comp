#version 450
// Blocked Floyd-Warshall, one phase of one round, working on global memory
// only: the same tiles, phases and cell ownership as blocked_fw_shared.comp,
// but every read goes to the distance buffer (no shared memory at all).
//   PHASE 1: the pivot tile (r, r).
//   PHASE 2: the pivot row (r, j) and column (i, r) tiles.
//   PHASE 3: all other tiles (own cells accumulated in registers).
// Phases 1 and 2 update cells that other invocations of the workgroup read at
// the next k: the buffer is coherent and each step ends with a buffer memory
// barrier and a workgroup barrier.
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TX, TY
layout(constant_id = 2) const uint BF = 32u;
layout(constant_id = 3) const uint PHASE = 1u;

layout(set = 0, binding = 0) coherent buffer Dist { int dist[]; };
layout(push_constant) uniform Round {
  uint round;  // r: the pivot tile is (r, r)
  uint n;      // padded matrix size, a multiple of BF
} pc;

const uint TX = gl_WorkGroupSize.x;
const uint TY = gl_WorkGroupSize.y;
const uint CELLS_X = (BF / TX > 1u) ? BF / TX : 1u;
const uint CELLS_Y = (BF / TY > 1u) ? BF / TY : 1u;

void main() {
  uint tx = gl_LocalInvocationID.x;
  uint ty = gl_LocalInvocationID.y;
  bool owns_cells = tx < BF && ty < BF;
  uint r = pc.round;
  uint n = pc.n;
  uint bi = (PHASE == 1u) ? r : gl_WorkGroupID.y;
  uint bj = (PHASE == 1u) ? r : gl_WorkGroupID.x;
  if (PHASE == 2u && (bi == r) == (bj == r)) return;
  if (PHASE == 3u && (bi == r || bj == r)) return;
  uint row0 = bi * BF, col0 = bj * BF, pivot0 = r * BF;

  if (PHASE == 3u) {
    int acc[CELLS_Y * CELLS_X];
    if (owns_cells) {
      for (uint a = 0u; a < CELLS_Y; ++a)
        for (uint b = 0u; b < CELLS_X; ++b)
          acc[a * CELLS_X + b] = dist[(row0 + ty + a * TY) * n + col0 + tx + b * TX];
      for (uint k = 0u; k < BF; ++k) {
        for (uint a = 0u; a < CELLS_Y; ++a) {
          int via = dist[(row0 + ty + a * TY) * n + pivot0 + k];
          for (uint b = 0u; b < CELLS_X; ++b)
            acc[a * CELLS_X + b] = min(acc[a * CELLS_X + b], via + dist[(pivot0 + k) * n + col0 + tx + b * TX]);
        }
      }
      for (uint a = 0u; a < CELLS_Y; ++a)
        for (uint b = 0u; b < CELLS_X; ++b)
          dist[(row0 + ty + a * TY) * n + col0 + tx + b * TX] = acc[a * CELLS_X + b];
    }
    return;
  }

  // Phases 1 and 2: dist[i][j] = min(dist[i][j], dist[i][p] + dist[p][j]) for
  // the pivots p of this round, one k per step. Written only when it shrinks
  // (see blocked_fw_shared.comp: the cells read at step k do not change at step k).
  for (uint k = 0u; k < BF; ++k) {
    if (owns_cells) {
      for (uint a = 0u; a < CELLS_Y; ++a) {
        for (uint b = 0u; b < CELLS_X; ++b) {
          uint i = row0 + ty + a * TY, j = col0 + tx + b * TX;
          int through_k = dist[i * n + pivot0 + k] + dist[(pivot0 + k) * n + j];
          if (through_k < dist[i * n + j]) dist[i * n + j] = through_k;
        }
      }
    }
    memoryBarrierBuffer();
    barrier();
  }
}
