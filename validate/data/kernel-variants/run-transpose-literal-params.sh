#!/usr/bin/env bash
# The device call behind h100-transpose-literal-params-2026-11-28.jsonl: what
# a transpose's read of its uniform buffer (matrices, repetitions) costs.
# Four kernels at 8 matrices (one workgroup of 256 lanes) and 4096, as
# written and with the two values literals (transpose-literal-params.sed),
# twice in turn. Run from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
F=h100-transpose-literal-params-2026-11-28.jsonl
for round in 1 2; do
  for kernel in Shuffle8 Threadgroup1d8 Ballot32 Threadgroup2d32; do
    for m in 8 4096; do
      timeout 60 $B validate transpose --param kernel=$kernel --param matrices=$m --param workgroup_size=256 \
        --out /tmp/t.jsonl >> $OUT/log.txt 2>&1
      append_last_record /tmp/t.jsonl $F
      annotate_last_record $F "r['variant_round'] = $round"
      sed -f $V/transpose-literal-params.sed kernels/transpose/$kernel.comp | sed "s/@MATRICES@/$m/" > /tmp/literal.comp
      with_source kernels/transpose/$kernel.comp /tmp/literal.comp \
        timeout 60 $B validate transpose --param kernel=$kernel --param matrices=$m --param workgroup_size=256 \
        --out /tmp/t.jsonl >> $OUT/log.txt 2>&1
      append_last_record /tmp/t.jsonl $F $V/transpose-literal-params.sed
      annotate_last_record $F "r['variant_round'] = $round"
    done
  done
done
print_records $OUT/$F "r['variant_round'], p['kernel'], p['matrices'], 'literal' if 'variant_source' in r else
  'as written', t['stats']['median'] / 1e3, r.get('correctness', {}).get('status')"
