#!/usr/bin/env python3
"""The loops of driver listings (driver_code.py's .sass files): for each
backward branch, the instructions from its target to it and the
shared-memory and add-min opcodes among them, so that how far the driver
unrolled a loop and how it widened its loads can be read off:
  python3 loop_bodies.py validate/data/sass/driver-2026-11-26/apsp-*/phase3.sass
A loop nested in another is listed on its own and inside the outer one."""
import re
import sys

for path in sys.argv[1:]:
    lines = [l for l in open(path).read().splitlines() if re.match(r"\s*/\*[0-9a-f]{4}\*/", l)]
    address = [int(re.match(r"\s*/\*([0-9a-f]+)\*/", l).group(1), 16) for l in lines]
    loops = []
    for end, line in enumerate(lines):
        branch = re.search(r"BRA (?:\S+ )?0x([0-9a-f]+)", line)
        if not branch or int(branch.group(1), 16) >= address[end] or int(branch.group(1), 16) not in address:
            continue
        body = [re.sub(r"^\s*/\*\w+\*/\s*", "", l).split(";")[0].strip() for l in
                lines[address.index(int(branch.group(1), 16)):end + 1]]
        loads = [re.search(r"LDS(\.\w+)?", op).group(0) for op in body if re.search(r"\bLDS", op)]
        loops.append("%d instructions: LDS %d, LDS.64 %d, LDS.128 %d, predicated LDS %d, STS %d, VIADDMNMX %d" % (
            len(body), loads.count("LDS"), loads.count("LDS.64"), loads.count("LDS.128"),
            sum(bool(re.match(r"@!?P\d LDS", op)) for op in body), sum("STS" in op for op in body),
            sum("VIADDMNMX" in op for op in body)))
    print(path, "|", "; ".join(loops) if loops else "no loop")
