#!/usr/bin/env bash
# The device call behind h100-shared-store-load-2026-11-26.jsonl: does a
# shared load wait longer behind a shared store to the same array? The
# shared_latency chain (one subgroup, each load's address the last load's
# value) as written, with each step storing the word it then loads
# (shared-chase-store-load.comp), and with each step's load after a store
# that no lane performs (shared-chase-store-off-load.comp), at 1024 and 4096
# iterations of 16 steps. Unchecked (the records' variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
point() {
  timeout 60 $B validate micro --param bench=shared_latency --param iterations=$1 --param workgroup_size=32 \
    --param workgroups=1 --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl h100-shared-store-load-2026-11-26.jsonl "${2:-}"
}
for i in 1024 4096; do point $i; done
for v in store-load store-off-load; do
  f=validate/data/kernel-variants/shared-chase-$v.comp
  for i in 1024 4096; do with_source kernels/micro/shared_chase.comp $f point $i $f; done
done
print_records $OUT/h100-shared-store-load-2026-11-26.jsonl "r.get('variant_source', 'as written').split('/')[-1], p['iterations'], '%.2f us' % (t['stats']['median'] / 1e3), k.get('micro', {}).get('Binary Size')"
