#!/usr/bin/env bash
# The device call behind h100-luminance-sizes-2026-11-26.jsonl: the luminance
# shaders' first pass over images of 8 to 66 MB (16 bytes a pixel), around
# the 33 MB of the suite's 1920x1080, to tell whether a repeat finds the
# image L2 kept from the repeat before: a pass that reads from L2 takes
# time in proportion to the image at L2's bandwidth, one that reads from
# DRAM at DRAM's (3.1 TB/s). VARIANTS and IMAGES override the lists.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for variant in ${VARIANTS:-fetch2_8x16 fetch4_4x16 fetch4_8x32 fetch4_16x64}; do
  for image in ${IMAGES:-1920x270 1920x540 1920x810 1920x945 1920x1080 1920x1350 1920x1620 3840x1080}; do
    timeout 60 $B validate luminance --param variant=$variant --param image=$image \
      --out $OUT/luminance-sizes.jsonl --resume >> $OUT/log.txt 2>&1
  done
done
print_records $OUT/luminance-sizes.jsonl "p['variant'], p['image'],
  '%.1f MB' % (16e-6 * eval(p['image'].replace('x', '*'))), 'first pass %.3f us' % (t['per_dispatch'][0]['median'] / 1e3),
  '%.2f TB/s' % (16 * eval(p['image'].replace('x', '*')) / t['per_dispatch'][0]['median'] / 1e3)"
