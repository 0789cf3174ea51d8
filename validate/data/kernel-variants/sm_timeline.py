# sm_timeline.py DISTANCES N BF: the SM and the start and end (device clock,
# ns, from the phase's first start) of each working workgroup of the last
# round's phase 2 and 3 grids, from a distance file that
# apsp-sm-timeline.comp wrote (n x n int32, unpadded), as CSV lines:
# phase,workgroup,bi,bj,sm,start_ns,end_ns (workgroup = bj + bi x tiles, the launch order).
# With a fourth argument `parts` (a file apsp-sm-timeline-parts.comp wrote),
# each line also has copied_ns and stepped_ns: after the tile copy's barrier
# and after the k loop's (phase 2's lines repeat start_ns there).
# With `round=R` instead (apsp-sm-timeline-round.comp.in), round R's.
import struct, sys
path, n, bf = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
parts = len(sys.argv) > 4 and sys.argv[4] == "parts"
tiles = -(-n // bf)
data = open(path, "rb").read()
cell = lambda i, j: struct.unpack_from("<I", data, 4 * (i * n + j))[0]
pivot = int(sys.argv[4][6:]) if len(sys.argv) > 4 and sys.argv[4].startswith("round=") else tiles - 1  # the round's pivot tile
rows = []
for bi in range(tiles):
    for bj in range(tiles):
        if bi == pivot and bj == pivot:
            continue
        phase = 2 if pivot in (bi, bj) else 3
        i, j = bi * bf, bj * bf
        words = [cell(i, j + w) for w in range(5 if parts else 3)]
        rows.append((phase, bj + bi * tiles, bi, bj, *words))
for phase in (2, 3):
    mine = [r for r in rows if r[0] == phase]
    first = min(r[5] for r in mine)
    for r in mine:
        print(",".join(str(x) for x in (*r[:5], *((t - first) % 2**32 for t in r[5:]))))
