#!/usr/bin/env bash
# On the device machine (nvcc and cuobjdump there), from the repository root:
# the SASS of the CUDA translations, written to $OUT.
cd validate/data/sass
for f in apsp_phase3 hybrid; do
  nvcc -arch=sm_90 -O3 -cubin -o $OUT/$f.cubin $f.cu && cuobjdump -sass $OUT/$f.cubin > $OUT/$f.sass
  rm -f $OUT/$f.cubin
done
nvcc --version > $OUT/nvcc.txt
