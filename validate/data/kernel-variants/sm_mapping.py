# sm_mapping.py DISTANCES N BF: the SM each workgroup of the last round's
# phase 2 and 3 grids ran on, from a distance file that
# apsp-sm-mapping.comp wrote (n x n int32, unpadded), as CSV lines:
# phase,workgroup,bi,bj,sm,warp (workgroup = bj + bi x tiles, the launch order).
import struct, sys
path, n, bf = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
tiles = -(-n // bf)
data = open(path, "rb").read()
cell = lambda i, j: struct.unpack_from("<i", data, 4 * (i * n + j))[0]
last = tiles - 1
for bi in range(tiles):
    for bj in range(tiles):
        i, j = bi * bf, bj * bf
        print("3,%d,%d,%d,%d,%d" % (bj + bi * tiles, bi, bj, cell(i, j), cell(i, j + 2)))
        print("2,%d,%d,%d,%d," % (bj + bi * tiles, bi, bj, cell(i, j + 1)))
