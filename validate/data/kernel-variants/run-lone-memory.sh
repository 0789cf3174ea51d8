#!/usr/bin/env bash
# The device call behind h100-lone-memory-2026-11-26.jsonl: what one load and
# one store a lane cost a lone workgroup's dispatch, where APSP's phase 1
# (a lone workgroup copying its tile in and writing it back) is 1.2-2.5 us
# longer than its empty dispatch on the device and 0.4-1.4 in the model
# (h100-apsp-phase12-fixed-2026-11-26.jsonl). One workgroup of 256 lanes:
# the empty kernel, and the bandwidth micro over 4 KiB (one 16-byte load a
# lane, then its store of the sum) at 1, 2 and 4 passes.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=$OUT/h100-lone-memory-2026-11-26.jsonl
timeout 60 $B validate micro --param bench=empty --param workgroups=1 --param workgroup_size=256 \
  --resume --out $F >> $OUT/log.txt 2>&1
for passes in 1 2 4; do
  timeout 60 $B validate micro --param bench=bandwidth --param bytes=4096 --param iterations=$passes \
    --param workgroups=1 --resume --out $F >> $OUT/log.txt 2>&1
done
print_records $F "p['bench'], p.get('bytes'), p['iterations'], p['workgroups'], '%.3f us' % (t['stats']['median'] / 1e3), r['correctness']['status']"
