#!/usr/bin/env bash
# The device calls behind h100-reduce-parts-2026-11-26.jsonl: the
# reductions' first pass (subgroup_add at 2^22 floats, 8192 workgroups of 256
# lanes) cut to parts (reduce-parts.comp.in, PART 0-6), one workgroup an SM
# (12032 words of shared memory) and eight (256, as written); each record
# with variant_part and variant_shared_words. PARTS, WORDS and NS (floats;
# 4194304 unless given) narrow or widen the run; VARIANT=unrolled_racy cuts
# reduce4_unrolled_racy.comp instead (reduce-racy-parts.comp.in, PART 0-4).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
VARIANT=${VARIANT:-subgroup_add}
if [ $VARIANT = unrolled_racy ]; then
  SOURCE=kernels/reduction/reduce4_unrolled_racy.comp TEMPLATE=$V/reduce-racy-parts.comp.in
else
  SOURCE=kernels/reduction/reduce6_subgroup_add.comp TEMPLATE=$V/reduce-parts.comp.in
fi
for n in ${NS:-4194304}; do
  for words in ${WORDS:-12032 256}; do
    for part in ${PARTS:-0 1 2 3 4 5 6}; do
      sed "s/@PART@/$part/; s/@WORDS@/$words/" $TEMPLATE > /tmp/reduce-parts.comp
      with_source $SOURCE /tmp/reduce-parts.comp \
        timeout 60 $B validate reduce --param n=$n --param variant=$VARIANT --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
      append_last_record /tmp/p.jsonl reduce-parts.jsonl $TEMPLATE
      annotate_last_record reduce-parts.jsonl "r['variant_part'], r['variant_shared_words'] = $part, $words"
    done
  done
done
python3 $V/reduce_parts.py $OUT/reduce-parts.jsonl
