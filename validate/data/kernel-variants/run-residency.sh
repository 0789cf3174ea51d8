#!/usr/bin/env bash
# The device calls behind h100-residency-2026-11-24.jsonl: how many
# workgroups of 256 lanes share an SM against the shared memory each
# declares. residency.comp.in (its @WORDS@ written as KB x 256) stands in for
# the empty micro: its first subgroup runs a dependent chain of about 19 us,
# so a dispatch of 132 x k workgroups takes one such time per wave. The
# first k whose time steps up is one more than the workgroups an SM holds.
# KBS: the shared sizes in KB (the calls ran "1 16 32 47", then "8 12 20 24").
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for kb in ${KBS:-1 16 32 47}; do
  sed "s/@WORDS@/$((kb * 256))/" validate/data/kernel-variants/residency.comp.in > /tmp/residency.comp
  for k in 1 2 3 4 5 6 7 8; do
    empty_variant_point /tmp/residency.comp validate/data/kernel-variants/residency.comp.in $((132 * k)) 256 \
      residency.jsonl "r['variant_shared_kb'] = $kb"
  done
done
python3 validate/data/kernel-variants/residency.py $OUT/residency.jsonl
