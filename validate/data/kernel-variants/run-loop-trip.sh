#!/usr/bin/env bash
# The device call behind h100-loop-trip-2026-11-26.jsonl: what a rolled
# loop's taken back-edge adds to a dependent chain. The shared_latency chain
# (one subgroup, each load's address the last load's value) as written (16
# steps a trip), with one step a trip (shared-chase-one-step.comp) and with
# two (shared-chase-two-steps.comp), each at two lengths of the same number
# of steps, so that the difference over the extra steps is a step's cost.
# Unchecked (the records' variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
point() {
  timeout 60 $B validate micro --param bench=shared_latency --param iterations=$1 --param workgroup_size=32 \
    --param workgroups=1 --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl h100-loop-trip-2026-11-26.jsonl "${2:-}"
}
for i in 1024 4096; do point $i; done
f=validate/data/kernel-variants/shared-chase-two-steps.comp
for i in 8192 32768; do with_source kernels/micro/shared_chase.comp $f point $i $f; done
f=validate/data/kernel-variants/shared-chase-one-step.comp
for i in 16384 65536; do with_source kernels/micro/shared_chase.comp $f point $i $f; done
print_records $OUT/h100-loop-trip-2026-11-26.jsonl "r.get('variant_source', 'as written').split('/')[-1], p['iterations'], '%.2f us' % (t['stats']['median'] / 1e3), k.get('micro', {}).get('Binary Size')"
