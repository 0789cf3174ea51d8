#!/usr/bin/env bash
# On the device machine (nvcc and cuobjdump there), from the repository root:
# the SASS of apsp_phase12.cu, written to $OUT.
cd validate/data/sass
nvcc -arch=sm_90 -O3 -cubin -o $OUT/apsp_phase12.cubin apsp_phase12.cu
cuobjdump -sass $OUT/apsp_phase12.cubin > $OUT/apsp_phase12.sass
cuobjdump -res-usage $OUT/apsp_phase12.cubin > $OUT/apsp_phase12.res.txt 2>&1
rm -f $OUT/apsp_phase12.cubin
python3 count_opcodes.py $OUT/apsp_phase12.sass
