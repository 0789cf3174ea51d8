#!/usr/bin/env bash
# The device call behind h100-alu-throughput-2026-11-23.jsonl: the ALU
# throughput benchmark as written (its constants read from a storage buffer
# in every step) and with the constants read once into registers, the
# integer step an add and a xor (alu-throughput-registers.comp; its CPU check
# fails by design, the time stands): is the benchmark bound by those reads,
# and what do integer and float operations issue at with every compute unit
# full? Each record's variant_source names its kernel.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
cp kernels/micro/alu_throughput.comp /tmp/alu_throughput.orig
for v in orig registers; do
  if [ $v = registers ]; then cp validate/data/kernel-variants/alu-throughput-registers.comp kernels/micro/alu_throughput.comp; fi
  for bench in alu_throughput_int alu_throughput_float; do for it in 256 1024; do
    timeout 60 $B validate micro --param bench=$bench --param iterations=$it --param workgroup_size=256 \
      --param workgroups=2048 --resume --out $OUT/alu-$v.jsonl >> $OUT/log.txt 2>&1
  done; done
done
cp /tmp/alu_throughput.orig kernels/micro/alu_throughput.comp
