#!/usr/bin/env bash
# On the device machine (nvcc and cuobjdump there), from the repository root:
# the SASS of the CUDA translation, written to $OUT.
cd validate/data/sass
nvcc -arch=sm_90 -O3 -cubin -o $OUT/apsp_phase3.cubin apsp_phase3.cu
cuobjdump -sass $OUT/apsp_phase3.cubin > $OUT/apsp_phase3.sass
rm -f $OUT/apsp_phase3.cubin
nvcc --version > $OUT/nvcc.txt
