#version 450
// Variant (validate/data/kernel-variants/run-phase12-access-parts.sh): in
// phases 1 and 2 a k step counts the cells that would shrink instead of
// storing them (the count is added to the write-back), the rest as written;
// the distances it leaves are wrong by design.
// Blocked Floyd-Warshall, one phase of one round, tiles in shared memory
// (apsp-blocked-floyd-warshall-report.md, hw3-2). The n x n distance matrix
// (n padded to a multiple of BF, padding = INF) is cut into BF x BF tiles; a
// workgroup of TX x TY invocations owns one tile and each invocation
// max(BF/TY,1) x max(BF/TX,1) of its cells: rows ty + a*TY, columns tx + b*TX.
//   PHASE 1: the pivot tile (r, r), relaxed through its own k.
//   PHASE 2: the pivot row (r, j) and column (i, r) tiles, from the pivot tile.
//   PHASE 3: all other tiles, from their pivot-row and pivot-column tiles.
// Phases 2 and 3 are dispatched over all rounds x rounds tiles and the tiles
// a phase does not touch leave at once, as in the report.
// Two BF x BF int tiles of shared memory: 2 * BF^2 * 4 bytes (BF = 78: 48672).
// TILE_COLUMN_MAJOR stores tiles column by column: neighbouring invocations
// (consecutive columns) then hit words BF apart, the bank-conflict experiment.
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // TX, TY
layout(constant_id = 2) const uint BF = 32u;
layout(constant_id = 3) const uint PHASE = 1u;
layout(constant_id = 4) const bool TILE_COLUMN_MAJOR = false;

layout(set = 0, binding = 0) buffer Dist { int dist[]; };
layout(push_constant) uniform Round {
  uint round;  // r: the pivot tile is (r, r)
  uint n;      // padded matrix size, a multiple of BF
} pc;

const uint TX = gl_WorkGroupSize.x;
const uint TY = gl_WorkGroupSize.y;
const uint CELLS_X = (BF / TX > 1u) ? BF / TX : 1u;
const uint CELLS_Y = (BF / TY > 1u) ? BF / TY : 1u;

shared int tile_a[BF * BF];  // phase 1: the pivot tile; 2: this tile; 3: the pivot-row tile (r, j)
shared int tile_b[BF * BF];  // phase 2: the pivot tile;                3: the pivot-column tile (i, r)

uint at(uint row, uint col) { return TILE_COLUMN_MAJOR ? col * BF + row : row * BF + col; }

void main() {
  uint tx = gl_LocalInvocationID.x;
  uint ty = gl_LocalInvocationID.y;
  // With more invocations than BF along a side, the extra ones only join barriers.
  bool owns_cells = tx < BF && ty < BF;
  uint r = pc.round;
  uint n = pc.n;
  uint bi = (PHASE == 1u) ? r : gl_WorkGroupID.y;
  uint bj = (PHASE == 1u) ? r : gl_WorkGroupID.x;
  if (PHASE == 2u && (bi == r) == (bj == r)) return;  // neither in the pivot row nor column, or the pivot
  if (PHASE == 3u && (bi == r || bj == r)) return;
  bool pivot_row = bi == r;  // phase 2: tile (r, j); otherwise the pivot-column tile (i, r)

  if (owns_cells) {
    for (uint a = 0u; a < CELLS_Y; ++a) {
      for (uint b = 0u; b < CELLS_X; ++b) {
        uint row = ty + a * TY, col = tx + b * TX;
        if (PHASE == 1u) {
          tile_a[at(row, col)] = dist[(r * BF + row) * n + r * BF + col];
        } else if (PHASE == 2u) {
          tile_a[at(row, col)] = dist[(bi * BF + row) * n + bj * BF + col];
          tile_b[at(row, col)] = dist[(r * BF + row) * n + r * BF + col];
        } else {
          tile_a[at(row, col)] = dist[(r * BF + row) * n + bj * BF + col];
          tile_b[at(row, col)] = dist[(bi * BF + row) * n + r * BF + col];
        }
      }
    }
  }
  barrier();

  if (PHASE == 3u) {
    // Both source tiles are final in this phase: no barrier inside the k loop,
    // and the tile's own cells stay in registers.
    int acc[CELLS_Y * CELLS_X];
    if (owns_cells) {
      for (uint a = 0u; a < CELLS_Y; ++a)
        for (uint b = 0u; b < CELLS_X; ++b)
          acc[a * CELLS_X + b] = dist[(bi * BF + ty + a * TY) * n + bj * BF + tx + b * TX];
      for (uint k = 0u; k < BF; ++k) {
        for (uint a = 0u; a < CELLS_Y; ++a) {
          int via = tile_b[at(ty + a * TY, k)];
          for (uint b = 0u; b < CELLS_X; ++b) acc[a * CELLS_X + b] = min(acc[a * CELLS_X + b], via + tile_a[at(k, tx + b * TX)]);
        }
      }
      for (uint a = 0u; a < CELLS_Y; ++a)
        for (uint b = 0u; b < CELLS_X; ++b)
          dist[(bi * BF + ty + a * TY) * n + bj * BF + tx + b * TX] = acc[a * CELLS_X + b];
    }
    return;
  }

  int shrunk = 0;  // variant: the cells that would shrink, counted
  // Phases 1 and 2 update tile_a in place, pivot by pivot, with a barrier
  // after each k. A cell is written only when it shrinks: the cells read at
  // step k (row k and column k) never shrink at step k because dist[k][k] is
  // 0 (or INF in the padding), so reads and writes of one step never meet.
  for (uint k = 0u; k < BF; ++k) {
    if (owns_cells) {
      for (uint a = 0u; a < CELLS_Y; ++a) {
        for (uint b = 0u; b < CELLS_X; ++b) {
          uint row = ty + a * TY, col = tx + b * TX;
          int through_k;
          if (PHASE == 1u) {
            through_k = tile_a[at(row, k)] + tile_a[at(k, col)];
          } else if (pivot_row) {
            through_k = tile_b[at(row, k)] + tile_a[at(k, col)];
          } else {
            through_k = tile_a[at(row, k)] + tile_b[at(k, col)];
          }
          if (through_k < tile_a[at(row, col)]) shrunk += 1;  // variant: no store
        }
      }
    }
    barrier();
  }

  if (owns_cells) {
    for (uint a = 0u; a < CELLS_Y; ++a) {
      for (uint b = 0u; b < CELLS_X; ++b) {
        uint row = ty + a * TY, col = tx + b * TX;
        dist[(bi * BF + row) * n + bj * BF + col] = tile_a[at(row, col)] + shrunk;
      }
    }
  }
}
