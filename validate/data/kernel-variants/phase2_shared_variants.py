#!/usr/bin/env python3
"""Writes apsp-phase2-shared.comp with SHARE busy tiles to an SM and its k loop
of phases 1 and 2 changed one way, for run-phase2-contention.sh:
  as-written   the loop as the suite's kernel has it;
  no-barrier   without the barrier after each step (the result is wrong);
  no-store     each cell's relaxation kept in a register, never stored (the
               result is wrong; the register is written out only where it
               could not be, so the compiler keeps the reads);
  no-reads     as no-store, each cell's three shared-memory reads replaced by
               values computed from registers (the same adds and min);
  reads-xor    as no-store, the relaxation's subtract and min replaced by a
               xor of the reads (the same reads, less integer work);
  own-only     as no-reads, but each cell's own word still read;
  pivots-only  as no-store, but each cell's own word not read;
  pivots-no-barrier  pivots-only without the barrier after each step;
  pivots-per-cell    pivots-only with a register a cell, as phase 3 keeps
               its cells (no chain of mins across the cells);
  pivots-per-cell-no-barrier  both;
  loads-first  the loop of apsp-loads-first.comp;
  pivots-once  each step's pivot words read once into registers, before
               its cells (what a compiler's common subexpressions make of
               them: a row word serves a row of cells, a column word a
               column); the results stay right;
  pivot-tile-once  phase 2 reads each of a step's pivot-tile words once
               into a register, before its cells: a row word for a row of
               cells (pivot-row tiles), a column word for a column (column
               tiles). The pivot tile is never stored in the loop, so a
               compiler may do this itself; the tile's own reads stay per
               cell, as they must. The results stay right;
  unrolled     the loop marked [[unroll]] (GL_EXT_control_flow_attributes).
VARIANT+no-branch: VARIANT with pivot_row written as true, so that every
busy tile takes the pivot-row tile's reads (the column tiles' results are
wrong) and the loop has no uniform branch to take; VARIANT+no-branch-column
with pivot_row written as false: every busy tile takes the column tile's.
VARIANT+select: VARIANT with both sides' pivot words read every step and
the sum chosen by a select, so that the driver issues four unpredicated
shared loads a cell where as written it predicates two of them off (the
results stay right). A further +padded (VARIANT+padded, or after one of
those) lays each tile's rows BF + 1 words apart, so that a subgroup's
reads of a column's words, two rows of 16x16 threads 32 words apart as
written (a 2-way bank conflict), fall in different banks (the results
stay right).
usage: phase2_shared_variants.py SHARE VARIANT OUT.comp"""
import pathlib, sys

here = pathlib.Path(__file__).parent
share, variant, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
variant, *modifiers = variant.split('+')
padded = 'padded' in modifiers
fixed = ''.join(m for m in modifiers if m != 'padded')
assert fixed in ('', 'no-branch', 'no-branch-column', 'select') and len(modifiers) <= 1 + padded, modifiers
src = (here / 'apsp-phase2-shared.comp').read_text().replace('const uint SHARE = 1u;', f'const uint SHARE = {share}u;')
loop_start = '  for (uint k = 0u; k < BF; ++k) {\n    if (owns_cells) {\n      for (uint a'
write_back = '  if (owns_cells) {\n    for (uint a = 0u; a < CELLS_Y; ++a) {\n      for (uint b = 0u; b < CELLS_X; ++b) {\n        uint row = ty + a * TY, col = tx + b * TX;\n        dist[(bi'
relax = '          if (through_k < tile_a[at(row, col)]) tile_a[at(row, col)] = through_k;\n'
step_barrier = '    }\n    barrier();\n  }\n\n' + write_back
assert src.count(relax) == 1 and src.count(step_barrier) == 1 and src.count(loop_start) == 1
if variant == 'no-barrier':
    src = src.replace(step_barrier, '    }\n  }\n\n' + write_back)
elif variant in ('no-store', 'no-reads', 'reads-xor', 'own-only', 'pivots-only', 'pivots-no-barrier',
                 'pivots-per-cell', 'pivots-per-cell-no-barrier'):
    if variant.endswith('no-barrier'):
        src = src.replace(step_barrier, '    }\n  }\n\n' + write_back)
    if variant.startswith('pivots-per-cell'):
        src = src.replace(loop_start, '  int relaxed[CELLS_Y * CELLS_X];\n  for (uint c = 0u; c < CELLS_Y * CELLS_X; ++c) relaxed[c] = 0;\n' + loop_start)
        src = src.replace(write_back, '  for (uint c = 0u; c < CELLS_Y * CELLS_X; ++c)\n    if (relaxed[c] < -2000000000) dist[c] = relaxed[c];\n' + write_back)
        cell = 'relaxed[a * CELLS_X + b]'
    else:
        src = src.replace(loop_start, '  int relaxed = 0;\n' + loop_start)
        src = src.replace(write_back, '  if (relaxed < -2000000000) dist[0] = relaxed;\n' + write_back)
        cell = 'relaxed'
    own = 'tile_a[at(row, col)]' if variant in ('no-store', 'reads-xor', 'own-only') else 'int(row + col)'
    kept = f'{cell} ^= through_k ^ {own};' if variant == 'reads-xor' else f'{cell} = min({cell}, through_k - {own});'
    src = src.replace(relax, '          ' + kept + '\n')
    if variant in ('no-reads', 'own-only'):
        for read, made in (('tile_a[at(row, k)] + tile_a[at(k, col)]', 'int(row * 7u + k) + int(col ^ k)'),
                           ('tile_b[at(row, k)] + tile_a[at(k, col)]', 'int(row * 5u + k) + int(col ^ k)'),
                           ('tile_a[at(row, k)] + tile_b[at(k, col)]', 'int(row * 3u + k) + int(col ^ k)')):
            assert src.count(read) == 1
            src = src.replace(read, made)
elif variant == 'loads-first':
    first = (here / 'apsp-loads-first.comp').read_text()
    start = src.index(loop_start)
    src = src[:start] + first[first.index('  for (uint k = 0u; k < BF; ++k) {\n    if (owns_cells) {\n      // Every'):first.index(write_back)] + src[src.index(write_back):]
elif variant == 'pivots-once':
    start, end = src.index(loop_start), src.index(step_barrier)
    src = src[:start] + '''  for (uint k = 0u; k < BF; ++k) {
    if (owns_cells) {
      int row_k[CELLS_X];
      int col_k[CELLS_Y];
      for (uint b = 0u; b < CELLS_X; ++b) {
        uint col = tx + b * TX;
        row_k[b] = (PHASE == 1u || pivot_row) ? tile_a[at(k, col)] : tile_b[at(k, col)];
      }
      for (uint a = 0u; a < CELLS_Y; ++a) {
        uint row = ty + a * TY;
        col_k[a] = (PHASE == 1u || !pivot_row) ? tile_a[at(row, k)] : tile_b[at(row, k)];
      }
      for (uint a = 0u; a < CELLS_Y; ++a) {
        for (uint b = 0u; b < CELLS_X; ++b) {
          uint row = ty + a * TY, col = tx + b * TX;
          int through_k = col_k[a] + row_k[b];
''' + relax + '''        }
      }
''' + src[end:]
elif variant == 'pivot-tile-once':
    start, end = src.index(loop_start), src.index(step_barrier)
    src = src[:start] + '''  for (uint k = 0u; k < BF; ++k) {
    if (owns_cells) {
      int pivot_word[CELLS_Y + CELLS_X];
      if (PHASE == 2u && pivot_row) {
        for (uint a = 0u; a < CELLS_Y; ++a) pivot_word[a] = tile_b[at(ty + a * TY, k)];
      } else if (PHASE == 2u) {
        for (uint b = 0u; b < CELLS_X; ++b) pivot_word[b] = tile_b[at(k, tx + b * TX)];
      }
      for (uint a = 0u; a < CELLS_Y; ++a) {
        for (uint b = 0u; b < CELLS_X; ++b) {
          uint row = ty + a * TY, col = tx + b * TX;
          int through_k;
          if (PHASE == 1u) {
            through_k = tile_a[at(row, k)] + tile_a[at(k, col)];
          } else if (pivot_row) {
            through_k = pivot_word[a] + tile_a[at(k, col)];
          } else {
            through_k = tile_a[at(row, k)] + pivot_word[b];
          }
''' + relax + '''        }
      }
''' + src[end:]
elif variant == 'unrolled':
    src = src.replace('#version 450\n', '#version 450\n#extension GL_EXT_control_flow_attributes : enable\n', 1)
    src = src.replace(loop_start, '  [[unroll]]\n' + loop_start)
elif variant != 'as-written':
    sys.exit(f'unknown variant {variant}')
if fixed == 'select':
    sides = ('          } else if (pivot_row) {\n'
             '            through_k = tile_b[at(row, k)] + tile_a[at(k, col)];\n'
             '          } else {\n'
             '            through_k = tile_a[at(row, k)] + tile_b[at(k, col)];\n'
             '          }\n')
    assert src.count(sides) == 1
    src = src.replace(sides, '          } else {\n'
                      '            int row_b = tile_b[at(row, k)], column_a = tile_a[at(k, col)];\n'
                      '            int row_a = tile_a[at(row, k)], column_b = tile_b[at(k, col)];\n'
                      '            through_k = pivot_row ? row_b + column_a : row_a + column_b;\n'
                      '          }\n')
elif fixed:
    pivot_row = '  bool pivot_row = bi == r;'
    assert src.count(pivot_row) == 1
    src = src.replace(pivot_row, '  bool pivot_row = %s;' % ('true' if fixed == 'no-branch' else 'false'))
if padded:
    for declaration in ('shared int tile_a[BF * BF];', 'shared int tile_b[BF * BF];',
                        'uint at(uint row, uint col) { return TILE_COLUMN_MAJOR ? col * BF + row : row * BF + col; }'):
        assert src.count(declaration) == 1
        src = src.replace(declaration, declaration.replace('BF * BF', 'BF * (BF + 1u)')
                          .replace('col * BF + row', 'col * (BF + 1u) + row').replace('row * BF + col', 'row * (BF + 1u) + col'))
pathlib.Path(out).write_text(src)
