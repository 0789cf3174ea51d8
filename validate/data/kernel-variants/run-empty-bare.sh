#!/usr/bin/env bash
# The device call behind h100-empty-bare-2026-11-27.jsonl: APSP's phase 1
# returning at once spans 2.77 us a dispatch, where the micro's empty
# dependent dispatches span 3.11-3.14 (h100-dispatch-push-read-2026-11-27.jsonl);
# its binary is a bare exit (256 bytes), the micro's reads its invocation id
# for a store no lane reaches (384). 64 dependent dispatches of the empty
# kernel as written (dispatch_gap) and with nothing in main
# (empty-bare.comp), 1 workgroup of 32 lanes and 256 of 256, twice each.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=h100-empty-bare-2026-11-27.jsonl
dispatch_sequence_points $F dispatch_gap
V=validate/data/kernel-variants/empty-bare.comp
VARIANT=$V with_source kernels/micro/empty.comp $V dispatch_sequence_points $F dispatch_gap
print_records $OUT/$F "r.get('variant_source', 'as written').split('/')[-1], p['workgroups'], p['workgroup_size'], {k: round(v['median'] / v['dispatches'], 1) for k, v in t.get('per_pipeline', {}).items()}, k.get('micro', {}).get('Binary Size')"
