#!/usr/bin/env bash
# The model's side of run-reduce-parts.sh, run here: each part written over
# the variant's kernel (restored after) and predicted with
# sim/devices/h100-calibrated.json; a line per part with the first pass's
# time a dispatch (dispatches[0].seconds_per_dispatch). Takes the same
# VARIANT, NS, WORDS and PARTS; LANELAB is the build's binary
# (build-release/lanelab unless given). Run from the repository root.
set -euo pipefail
V=validate/data/kernel-variants
LANELAB=${LANELAB:-build-release/lanelab}
VARIANT=${VARIANT:-subgroup_add}
if [ $VARIANT = unrolled_racy ]; then
  SOURCE=kernels/reduction/reduce4_unrolled_racy.comp TEMPLATE=$V/reduce-racy-parts.comp.in
else
  SOURCE=kernels/reduction/reduce6_subgroup_add.comp TEMPLATE=$V/reduce-parts.comp.in
fi
cp $SOURCE /tmp/predict-parts.orig
trap 'cp /tmp/predict-parts.orig $SOURCE' EXIT
for n in ${NS:-4194304}; do
  for words in ${WORDS:-12032 256}; do
    for part in ${PARTS:-0 1 2 3 4 5 6}; do
      sed "s/@PART@/$part/; s/@WORDS@/$words/" $TEMPLATE > $SOURCE
      $LANELAB predict reduce --param variant=$VARIANT --param n=$n --device sim/devices/h100-calibrated.json --json |
        python3 -c "import json, sys; r = json.load(sys.stdin); print('$VARIANT n $n words $words part $part: first pass %.2f us a dispatch (model)' % (r['dispatches'][0]['seconds_per_dispatch'] * 1e6))"
    done
  done
done
