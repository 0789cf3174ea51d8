#!/usr/bin/env python3
"""Instructions per kernel in cuobjdump -sass output, and the counts of the
opcodes that matter for shared memory: python3 count_opcodes.py FILE.sass"""
import collections
import re
import sys

kernel, counts = None, collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    name = re.search(r"Function : (\S+)", line)
    if name:
        kernel = name.group(1)
        continue
    op = re.search(r"/\*[0-9a-f]{4}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]+)", line)
    if op and kernel:
        counts[kernel][op.group(2)] += 1
for kernel, ops in counts.items():
    shown = {k: v for k, v in sorted(ops.items()) if re.match(r"LDS|STS|BAR|SHFL|BRA|BSSY|BSYNC|WARPSYNC|REDUX|VIADDMNMX", k)}
    print(kernel, sum(ops.values()), "instructions:", " ".join(f"{k} {v}" for k, v in shown.items()))
