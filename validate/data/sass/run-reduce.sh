#!/usr/bin/env bash
# On the device machine (nvcc and cuobjdump there), from the repository root:
# the SASS of reduce_first_pass.cu, written to $OUT, and its opcode counts.
cd validate/data/sass
nvcc -arch=sm_90 -O3 -cubin -o $OUT/reduce_first_pass.cubin reduce_first_pass.cu
cuobjdump -sass $OUT/reduce_first_pass.cubin > $OUT/reduce_first_pass.sass
rm -f $OUT/reduce_first_pass.cubin
python3 count_opcodes.py $OUT/reduce_first_pass.sass
