#!/usr/bin/env bash
# The device call behind h100-luminance-parts-2026-11-26.jsonl: fetch2_8x16
# against fetch4_4x16 (the luminance pair the model misorders), as written,
# without the halving steps (luminance-no-tree.comp) and as the fetches
# alone (luminance-loads-only.comp), at 1920x540 and 1920x1080, to find the
# part that makes fetch2_8x16 the slower on the device.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
for source in kernels/reduction/luminance.comp $V/luminance-no-tree.comp $V/luminance-loads-only.comp; do
  for variant in fetch2_8x16 fetch4_4x16; do
    for image in ${IMAGES:-1920x540 1920x1080}; do
      with_source kernels/reduction/luminance.comp $source \
        timeout 60 $B validate luminance --param variant=$variant --param image=$image --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
      append_last_record /tmp/p.jsonl luminance-parts.jsonl \
        "$([ $source = kernels/reduction/luminance.comp ] || echo $source)"
    done
  done
done
print_records $OUT/luminance-parts.jsonl "(r.get('variant_source') or 'as written').split('/')[-1], p['variant'],
  p['image'], 'first pass %.3f us' % (t['per_dispatch'][0]['median'] / 1e3),
  'registers', k['luminance'].get('Register Count'), 'binary', k['luminance'].get('Binary Size')"
