#!/usr/bin/env bash
# The device call behind h100-dispatch-push-read-2026-11-27.jsonl: APSP's
# phase 1 spans 0.68 us more when its lone workgroup reads the pushed round
# than when it reads nothing (h100-apsp-phase12-push-read-2026-11-27.jsonl).
# Is that the read of pushed constants as such? 64 dependent dispatches of
# the empty kernel (dispatch_gap), of the empty kernel with APSP's two push
# constants set (dispatch_push) and read by every lane (dispatch_push_read),
# 1 workgroup of 32 lanes and 256 of 256, twice each, in the order given
# (lanelab calibrate takes push_constant_wait_us from the last two).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=h100-dispatch-push-read-2026-11-27.jsonl
dispatch_sequence_points $F dispatch_gap dispatch_push dispatch_push_read
print_records $OUT/$F "p['bench'], p['workgroups'], p['workgroup_size'], t['stats']['median'], t.get('timed_stats', {}).get('median'), {k: round(v['median'] / v['dispatches'], 1) for k, v in t.get('per_pipeline', {}).items()}, r['correctness']['status']"
