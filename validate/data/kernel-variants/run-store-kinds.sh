#!/usr/bin/env bash
# The device call behind h200-store-kinds-2026-11-28.jsonl: what holds a
# slot of a workgroup that stores where eight of 256 lanes fill an SM's
# subgroup slots (h100-store-slots-2026-11-24.jsonl: 886-896 ns a
# workgroup a slot, against 634 without the store, the launch rate). The
# reductions' first pass replaced by reduce-store-kinds.comp.in at 1, 7 and
# 8 KB of shared memory a workgroup (8, 7 and 6 an SM), each of its first
# five ways to store (KBS, WAYS: these unless given; the second call ran
# KBS=1 WAYS="1 4 5 6 7"), subgroup_add at 2^22 and 2^24 floats (8192 and
# 32768 workgroups of 256 lanes); each record with variant_shared_kb and
# variant_store (the way). Run from the repository root on the device
# machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
F=h200-store-kinds-2026-11-28.jsonl
SIZES="4194304 16777216"
for kb in ${KBS:-1 7 8}; do
  for store in ${WAYS:-0 1 2 3 4}; do
    sed "s/@WORDS@/$((kb * 256))/; s/@STORE@/$store/" $V/reduce-store-kinds.comp.in > /tmp/store-kinds.comp
    with_source kernels/reduction/reduce6_subgroup_add.comp /tmp/store-kinds.comp subgroup_add_points $F \
      $V/reduce-store-kinds.comp.in
    python3 - "$OUT/$F" $kb $store <<'PY'
import json, sys
path, kb, store = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
records = [json.loads(l) for l in open(path)]
for r in records:
    if 'variant_shared_kb' not in r:
        r['variant_shared_kb'], r['variant_store'] = kb, store
open(path, 'w').write(''.join(json.dumps(r, separators=(',', ':')) + '\n' for r in records))
PY
  done
done
python3 validate/data/kernel-variants/store_slots.py $OUT/$F
