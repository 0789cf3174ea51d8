#!/usr/bin/env bash
# The device call behind h100-dispatch-push-2026-11-26.jsonl: does a
# dependent dispatch cost more when push constants are set before it, as
# APSP sets its round's before each of its dispatches? 64 dependent
# dispatches of the empty kernel (dispatch_gap) and of the empty kernel
# with APSP's two push constants (dispatch_push), 1 workgroup of 32 lanes
# and 256 of 256, twice each, in the order given.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=h100-dispatch-push-2026-11-26.jsonl
dispatch_sequence_points $F dispatch_gap dispatch_push
print_records $OUT/$F "p['bench'], p['workgroups'], p['workgroup_size'], t['stats']['median'], t.get('timed_stats', {}).get('median'), r['correctness']['status']"
