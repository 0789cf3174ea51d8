"""The NVIDIA Vulkan driver's compiled kernels, out of its shader disk cache.

usage: driver_code.py CACHE_DIR OUT_DIR [NVDISASM]
       driver_code.py --index DIR     (DIR/index.csv from DIR/*/ as the first form wrote them)

CACHE_DIR is one point's cache from run-driver-cache.sh (__GL_SHADER_DISK_CACHE_PATH)
with the point's record.jsonl beside it. The cache (driver 580.159) is a .toc of
24-byte entries (offset, size, 16-byte key) after a 48-byte header, and a .bin in
which each entry is a 36-byte header and a zstd frame of `size` bytes. An entry
holding a kernel keeps its code size at byte 76 and the code itself, 16 bytes an
instruction, ending in EXIT, the branch to itself and NOP padding. The kernels come
in the order the point created its pipelines: the preheat and empty kernels of the
runner, then the workload's, which the record's kernel_statistics name by their
"Binary Size". Writes to OUT_DIR, per workload pipeline, NAME.bin (the code)
or, given NVDISASM, NAME.sass: nvdisasm -b SM90's listing, one instruction a
line, without the NOP padding after the closing branch; and statistics.json,
the point's parameters and the driver's statistics of each pipeline. Needs the
zstd command.
"""
import csv
import glob
import json
import os
import re
import struct
import subprocess
import sys

EXIT = bytes.fromhex("4d79000000000000")          # EXIT, the low word
BRANCH_TO_SELF = bytes.fromhex("4779fc00fcffffff")  # BRA to itself, the low word
NOP = bytes.fromhex("1879000000000000")


def entries(cache_dir):
    for toc_path in sorted(glob.glob(os.path.join(cache_dir, "GLCache", "*", "*", "*.toc"))):
        toc = open(toc_path, "rb").read()
        data = open(toc_path[:-4] + ".bin", "rb").read()
        for at in range(48, len(toc) - 7, 24):
            offset, size = struct.unpack_from("<II", toc, at)
            frame = data[offset + 36:offset + 36 + size]
            # zstd writes the frame's whole output and then fails on the bytes past it.
            yield subprocess.run(["zstd", "-d", "-c"], input=frame, capture_output=True).stdout


def kernel_code(entry):
    end = entry.find(BRANCH_TO_SELF)
    if entry.find(EXIT) < 0 or end < 0:
        return None
    end += 16
    while entry[end:end + 8] == NOP:
        end += 16
    size = struct.unpack_from("<I", entry, 76)[0]
    if not 0 < size <= end:
        return None
    return entry[end - size:end]


def listing(disassembly):
    """nvdisasm's listing, an instruction a line, up to the closing branch to itself."""
    lines = []
    for line in disassembly.splitlines():
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;?\s*$", line)
        if not m:
            continue
        instruction = re.sub(r"\s+", " ", m.group(2))
        lines.append(f"/*{m.group(1)}*/ {instruction}")
        if instruction == f"BRA 0x{int(m.group(1), 16):x}":
            break
    return "\n".join(lines) + "\n"


def index(directory):
    """One row a pipeline: the driver's statistics and what its listing holds."""
    rows = []
    for stats_path in sorted(glob.glob(os.path.join(directory, "*", "statistics.json"))):
        point_dir = os.path.dirname(stats_path)
        point = json.load(open(stats_path))
        for name, stats in point["kernel_statistics"].items():
            lines = open(os.path.join(point_dir, name + ".sass")).read().splitlines()
            ops = [re.sub(r"^/\*\w+\*/ (@!?U?P\w+ )?", "", line).split()[0] for line in lines]
            count = lambda *prefixes: sum(op.startswith(prefixes) for op in ops)
            rows.append({
                "point": os.path.basename(point_dir),
                "params": " ".join(f"{k}={v}" for k, v in sorted(point["params"].items()) if v != ""),
                "pipeline": name, "binary_bytes": stats["Binary Size"], "registers": stats["Register Count"],
                "shared_bytes": stats["Shared Memory Size"], "instructions": len(ops), "lds": count("LDS"),
                "sts": count("STS"), "ldg": count("LDG"), "stg": count("STG"), "bar": count("BAR"),
                "bra": sum(op == "BRA" for op in ops),
                "predicated": sum(bool(re.match(r"^/\*\w+\*/ @", line)) for line in lines)})
    with open(os.path.join(directory, "index.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"{len(rows)} pipelines")


def main():
    if sys.argv[1] == "--index":
        index(sys.argv[2])
        return
    cache_dir, out_dir = sys.argv[1:3]
    nvdisasm = sys.argv[3] if len(sys.argv) > 3 else None
    record = json.loads(open(os.path.join(cache_dir, "record.jsonl")).readline())
    pipelines = [(name, stats["Binary Size"]) for name, stats in record["kernel_statistics"].items()]
    kernels = [code for code in map(kernel_code, entries(cache_dir)) if code is not None]
    # The workload's pipelines are the last ones created, in kernel_statistics' order when
    # their sizes say so; otherwise matched by size.
    tail = kernels[-len(pipelines):]
    if [len(k) for k in tail] != [size for _, size in pipelines]:
        by_size = {}
        for code in kernels:
            by_size.setdefault(len(code), code)
        tail = [by_size.get(size) for _, size in pipelines]
    os.makedirs(out_dir, exist_ok=True)
    json.dump({"params": record["params"], "kernel_statistics": record["kernel_statistics"]},
              open(os.path.join(out_dir, "statistics.json"), "w"), indent=1, sort_keys=True)
    for (name, size), code in zip(pipelines, tail):
        if code is None:
            print(f"{cache_dir}: no kernel of {size} bytes for {name}")
            continue
        path = os.path.join(out_dir, name + ".bin")
        open(path, "wb").write(code)
        if nvdisasm:
            sass = subprocess.run([nvdisasm, "-b", "SM90", path], capture_output=True, text=True, check=True)
            os.remove(path)
            path = path[:-4] + ".sass"
            open(path, "w").write(listing(sass.stdout))
        print(f"{path}: {size} bytes")


if __name__ == "__main__":
    main()
