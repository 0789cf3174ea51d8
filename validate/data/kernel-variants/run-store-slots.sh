#!/usr/bin/env bash
# The device call behind h100-store-slots-2026-11-24.jsonl: how long a slot
# holds a workgroup that stores, against how many an SM holds. The
# reductions' first pass replaced by reduce-store-slots.comp.in (KB of
# shared memory a workgroup: 47, 20, 12 or 1, so that an SM holds 1, 2, 4 or
# 8; STORE 1 or 0: its first lane stores the partial, or never), subgroup_add
# at 2^22 and 2^24 floats (8192 and 32768 workgroups of 256 lanes), each
# record with variant_shared_kb and variant_store. KBS: the KB ("47 20 12 1"
# unless given); WGS: the workgroup size (256 unless given; the second call
# ran KBS="8 1" and then KBS="1" WGS=128: six an SM, and sixteen of 128
# lanes, which fill the SM's subgroup slots as eight of 256 do).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
SIZES=${NS:-4194304 16777216}
for kb in ${KBS:-47 20 12 1}; do
  for store in 1 0; do
    sed "s/@WORDS@/$((kb * 256))/; s/@STORE@/$store/" $V/reduce-store-slots.comp.in > /tmp/store-slots.comp
    with_source kernels/reduction/reduce6_subgroup_add.comp /tmp/store-slots.comp subgroup_add_points slots.jsonl \
      $V/reduce-store-slots.comp.in
    python3 - "$OUT/slots.jsonl" $kb $store <<'PY'
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
python3 validate/data/kernel-variants/store_slots.py $OUT/slots.jsonl
