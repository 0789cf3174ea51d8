#!/usr/bin/env bash
# The device call behind h100-l2-capacity-2026-11-24.jsonl: how many bytes
# of lines L2 keeps for one SM that reads them again and again. The pointer
# chase follows one random cycle through every 128-byte line of buffers of
# 16 to 48 MiB, one lap a dispatch (steps = lines), each repeat after the
# last: a line L2 kept is an L2 hit (300 cycles), one it did not a DRAM
# round trip (720).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for mib in ${MIBS:-16 20 24 28 32 36 40 48}; do
  bytes=$((mib * 1048576))
  timeout 120 $B validate micro --param bench=pointer_chase --param bytes=$bytes --param iterations=$((bytes / 2048)) \
    --resume --out $OUT/l2-capacity.jsonl >> $OUT/log.txt 2>&1
done
python3 -c "
import json
for r in map(json.loads, open('$OUT/l2-capacity.jsonl')):
    p = r['params']; steps = int(p['iterations']) * 16
    print(int(p['bytes']) >> 20, 'MiB', '%.1f cycles a step' % (r['timing']['stats']['median'] * r['clocks']['sm_mhz'] * 1e-3 / steps))"
