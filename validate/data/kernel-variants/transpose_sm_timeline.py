# transpose_sm_timeline.py ROWS LANES: the SM and the start and end (device
# clock, ns, from the grid's first start) of each workgroup of a transpose
# grid, from the matrices buffer that transpose-sm-timeline-*.comp left
# (uint32 rows; workgroup w's record at row w x LANES), as CSV lines:
# workgroup,sm,start_ns,end_ns.
import struct, sys
data = open(sys.argv[1], "rb").read()
lanes = int(sys.argv[2])
rows = struct.unpack("<%dI" % (len(data) // 4), data)
records = [(w, *rows[w * lanes:w * lanes + 3]) for w in range(len(rows) // lanes)]
first = min(r[2] for r in records)
for w, sm, start, end in records:
    print("%d,%d,%d,%d" % (w, sm, (start - first) % 2**32, (end - first) % 2**32))
