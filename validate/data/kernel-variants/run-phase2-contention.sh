#!/usr/bin/env bash
# The device call behind h200-apsp-phase2-contention-2026-11-23.jsonl: what
# do APSP phase 2's busy workgroups contend for when 3 share an SM? Block 32
# with 16x16 threads at n = 1000, the busy tiles 1 or 3 to an SM
# (apsp-phase2-shared.comp), its k loop as written, without its barrier,
# without its store, and with each step's reads first
# (phase2_shared_variants.py writes each; the records' variant_source and
# variant_share, added after the call in the order run). Per-pipeline
# times, not checked: all but as-written, loads-first and unrolled compute
# wrong distances.
# VARIANTS="as-written unrolled" ran the later call behind
# h200-apsp-phase2-unrolled-2026-11-23.jsonl, VARIANTS="no-store no-reads
# reads-xor" the one behind h200-apsp-phase2-reads-2026-11-23.jsonl and
# VARIANTS="own-only pivots-only" the one behind
# h200-apsp-phase2-which-reads-2026-11-23.jsonl. On an H100, three calls
# made h100-apsp-phase2-branch-2026-11-23.jsonl, with VARIANTS="as-written
# pivots-only pivots-no-barrier pivots-per-cell pivots-per-cell-no-barrier",
# "as-written+no-branch pivots-per-cell-no-barrier+no-branch" and
# "as-written+no-branch-column pivots-per-cell-no-barrier+no-branch-column
# pivots-only+no-branch".
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points=()
for variant in ${VARIANTS:-as-written no-barrier no-store loads-first}; do
  for share in 1 3; do points+=(1000:32:16x16:$share:$variant); done
done
phase2_variant_points contention.jsonl "${points[@]}"
