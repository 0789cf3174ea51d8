#!/usr/bin/env bash
# The device call behind the bank_throughput records with access=store in
# h100-micro-2026-11-23.jsonl: how many cycles of the shared-memory pipe
# does a 32-bit store wavefront take, 1- to 32-way conflicted, with every
# compute unit full? The 32-bit loads again in the same call, to compare.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for access in store uint; do bank_throughput_points shared-$access.jsonl $access; done
