#!/usr/bin/env bash
# The device call behind h100-shared-apsp-patterns-2026-11-26.jsonl: what the
# shared-memory pipe takes for the loads of APSP's phase 3 with block 32 and
# 16x16 threads (shared-throughput-apsp-patterns.comp over
# kernels/micro/shared_throughput.comp): a pivot-column pair (LDS.64) and
# quad (LDS.128), each read by the two halves of a subgroup at two
# addresses 32 words apart, the same as single words, and a pivot-row word
# read by two lanes; with every SM full (1024 workgroups of 256 lanes) at
# 16 and 64 iterations of 16 loads, the variant's source in each record;
# and APSP at n = 4096 with that shape, phase by phase, in the same call.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
for access in uint uvec4 neighbours broadcast; do
  for iterations in 16 64; do
    with_source kernels/micro/shared_throughput.comp $V/shared-throughput-apsp-patterns.comp \
      timeout 60 $B validate micro --param bench=bank_throughput --param access=$access --param ways=1 \
      --param iterations=$iterations --param workgroup_size=256 --param workgroups=1024 --no-check --repeats 10 \
      --out /tmp/r.jsonl >> $OUT/log.txt 2>&1
    append_last_record /tmp/r.jsonl shared-apsp-patterns.jsonl $V/shared-throughput-apsp-patterns.comp
  done
done
# APSP itself at n = 4096, block 32 with 16x16 threads, the same call's baseline.
[ -n "$NO_APSP" ] || APSP_CHECK=--no-check apsp_points shared-apsp-patterns-apsp.jsonl 4096:32:16x16
[ -n "$NO_APSP" ] || phase_times $OUT/shared-apsp-patterns-apsp.jsonl
print_records $OUT/shared-apsp-patterns.jsonl "p['access'], p['iterations'], '%.3f us' % (t['stats']['median'] / 1e3), k.get('micro', {}).get('Binary Size'), k.get('micro', {}).get('Shared Memory Size')"
