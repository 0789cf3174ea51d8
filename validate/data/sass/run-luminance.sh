#!/usr/bin/env bash
# On the device machine (nvcc and cuobjdump there), from the repository root:
# the SASS of luminance.cu, written to $OUT, and its opcode counts.
cd validate/data/sass
nvcc -arch=sm_90 -O3 -cubin -o $OUT/luminance.cubin luminance.cu
cuobjdump -sass $OUT/luminance.cubin > $OUT/luminance.sass
rm -f $OUT/luminance.cubin
python3 count_opcodes.py $OUT/luminance.sass
grep -E "LDG|BRA|ISETP|FFMA|FMUL" $OUT/luminance.sass | head -60
