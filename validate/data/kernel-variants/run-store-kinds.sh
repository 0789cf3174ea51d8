#!/usr/bin/env bash
# The device call behind h200-store-kinds-2026-11-28.jsonl: what holds a
# slot of a workgroup that stores where eight of 256 lanes fill an SM's
# subgroup slots (h100-store-slots-2026-11-24.jsonl: 886-896 ns a
# workgroup a slot, against 634 without the store, the launch rate). The
# reductions' first pass replaced by reduce-store-kinds.comp.in at 1, 7 and
# 8 KB of shared memory a workgroup (8, 7 and 6 an SM), each of its first
# five ways to store (KBS, WAYS: these unless given; the second call ran
# KBS=1 WAYS="1 4 5 6 7", the third KBS=1 WAYS="1 5", the fourth
# KBS=1 WAYS="1 8 9 10"), subgroup_add at 2^22 and 2^24 floats (8192 and
# 32768 workgroups of 256 lanes); each record with variant_shared_kb and
# variant_store (the way). Run from the repository root on the device
# machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
F=h200-store-kinds-2026-11-28.jsonl
for kb in ${KBS:-1 7 8}; do
  for store in ${WAYS:-0 1 2 3 4}; do
    sed "s/@WORDS@/$((kb * 256))/; s/@STORE@/$store/" $V/reduce-store-kinds.comp.in > /tmp/store-kinds.comp
    for n in 4194304 16777216; do
      SIZES=$n with_source kernels/reduction/reduce6_subgroup_add.comp /tmp/store-kinds.comp subgroup_add_points $F \
        $V/reduce-store-kinds.comp.in
      annotate_last_record $F "r['variant_shared_kb'], r['variant_store'] = $kb, $store"
    done
  done
done
python3 validate/data/kernel-variants/store_slots.py $OUT/$F
