from lib import *
import random
rnd = random.Random(4242)
EXT = '''#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require'''

def mask4(bits):   # set of lane numbers -> uvec4 words x,y
    m = 0
    for b in bits: m |= 1 << b
    return [m & M32, (m >> 32) & M32, 0, 0]

# ---------- subgroup_builtins_wW ----------
for W in (8, 32, 64):
    res = []
    for li in range(64):
        lane, sg = li % W, li // W
        eq = mask4([lane]); ge = mask4(range(lane, W)); gt = mask4(range(lane + 1, W))
        le = mask4(range(0, lane + 1)); lt = mask4(range(0, lane))
        res += [W, lane, sg, 64 // W, eq[0], eq[1], ge[0], ge[1], gt[0], gt[1], le[0], le[1], lt[0], lt[1], 0, 0]
    C(f'subgroup_builtins_w{W}', '''
#!amber
# ARGS: --subgroup-size $(W)
# Subgroup builtins with an 8x8 workgroup split into subgroups of $(W) by
# LocalInvocationIndex: SubgroupSize, SubgroupLocalInvocationId, SubgroupId,
# NumSubgroups and the Eq/Ge/Gt/Le/Lt masks (words x and y; Ge/Gt stop at
# SubgroupSize-1). 16 words per invocation at 16 * LocalInvocationIndex.
SHADER compute sgb GLSL
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint b = 16u * gl_LocalInvocationIndex;
  o.v[b + 0u] = gl_SubgroupSize;
  o.v[b + 1u] = gl_SubgroupInvocationID;
  o.v[b + 2u] = gl_SubgroupID;
  o.v[b + 3u] = gl_NumSubgroups;
  o.v[b + 4u] = gl_SubgroupEqMask.x;
  o.v[b + 5u] = gl_SubgroupEqMask.y;
  o.v[b + 6u] = gl_SubgroupGeMask.x;
  o.v[b + 7u] = gl_SubgroupGeMask.y;
  o.v[b + 8u] = gl_SubgroupGtMask.x;
  o.v[b + 9u] = gl_SubgroupGtMask.y;
  o.v[b + 10u] = gl_SubgroupLeMask.x;
  o.v[b + 11u] = gl_SubgroupLeMask.y;
  o.v[b + 12u] = gl_SubgroupLtMask.x;
  o.v[b + 13u] = gl_SubgroupLtMask.y;
  o.v[b + 14u] = gl_SubgroupEqMask.z | gl_SubgroupGeMask.z | gl_SubgroupGeMask.w;
  o.v[b + 15u] = gl_SubgroupLeMask.w;
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 1024 FILL 99

PIPELINE compute pipe
  ATTACH sgb
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')

# ---------- subgroup_elect_vote_w8 ----------
W = 8; L = 32
xs = [rnd.randint(1, 9) for _ in range(L)]
for i in range(8, 16): xs[i] = 5          # subgroup 1: all equal, all > 0
xs[16:24] = [3, 0, 7, 1, 9, 4, 2, 6]      # subgroup 2: a zero
xs[24:32] = [1, 3, 5, 7, 9, 11, 13, 2]    # subgroup 3: odd lanes 1,3,5 odd; lane 7 even
res = []
for s in range(L // W):
    idx = list(range(s * W, s * W + W))
    v = [xs[i] for i in idx]
    allpos = all(x > 0 for x in v); any5 = any(x == 5 for x in v); alleq = all(x == v[0] for x in v)
    branch = [i for i in idx if (i % W) % 3 == 2]
    odd = [i for i in idx if (i % W) % 2 == 1]
    allodd_b = all(xs[i] % 2 == 1 for i in odd)
    anybig_b = any(xs[i] > 8 for i in odd)
    for i in idx:
        lane = i % W
        r = [int(lane == 0), int(allpos), int(any5), int(alleq)]
        r.append(int(i == branch[0]) if i in branch else 2)
        r.append(int(allodd_b) if i in odd else 2)
        r.append(int(anybig_b) if i in odd else 2)
        r.append(0)
        res += r
C('subgroup_elect_vote_w8', '''
#!amber
# ARGS: --subgroup-size 8
# subgroupElect, subgroupAll/Any/AllEqual with 32 invocations in subgroups
# of 8, uniformly and inside divergent branches (only active lanes take part:
# in the lane%3==2 branch the elected lane is lane 2). 8 words per invocation,
# 2 where the invocation was not in the branch.
SHADER compute vote GLSL
#version 450
$(EXT)
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint lane = gl_SubgroupInvocationID;
  uint x = inb.v[i];
  uint b = 8u * i;
  o.v[b + 0u] = uint(subgroupElect());
  o.v[b + 1u] = uint(subgroupAll(x > 0u));
  o.v[b + 2u] = uint(subgroupAny(x == 5u));
  o.v[b + 3u] = uint(subgroupAllEqual(x));
  o.v[b + 4u] = 2u;
  o.v[b + 5u] = 2u;
  o.v[b + 6u] = 2u;
  o.v[b + 7u] = 0u;
  if (lane % 3u == 2u) {
    o.v[b + 4u] = uint(subgroupElect());
  }
  if (lane % 2u == 1u) {
    o.v[b + 5u] = uint(subgroupAll(x % 2u == 1u));
    o.v[b + 6u] = uint(subgroupAny(x > 8u));
  }
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(xs))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 256 FILL 0

PIPELINE compute pipe
  ATTACH vote
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')

# ---------- subgroup_ballot_wW ----------
def popc(m): return bin(m).count('1')
xs = [rnd.randint(0, 99) for _ in range(64)]
for W in (16, 64):
    res = []
    for s in range(64 // W):
        idx = list(range(s * W, s * W + W))
        pred = {i % W for i in idx if xs[i] % 3 == 0}
        if not pred: raise SystemExit('need a true lane')
        pm = 0
        for l in pred: pm |= 1 << l
        hi = [i % W for i in idx if xs[i] >= 50]   # divergent branch: lanes with x >= 50
        hm = 0
        for l in hi: hm |= 1 << l
        for i in idx:
            lane = i % W
            r = [pm & M32, (pm >> 32) & M32, popc(pm), popc(pm & ((2 << lane) - 1)), popc(pm & ((1 << lane) - 1)),
                 (pm & -pm).bit_length() - 1, pm.bit_length() - 1, (pm >> (lane ^ 1)) & 1, (pm >> lane) & 1]
            if lane in hi:
                r += [hm & M32, (hm >> 32) & M32, popc(hm), popc(hm & ((1 << lane) - 1))]
            else:
                r += [7, 7, 7, 7]
            r += [0, 0, 0]
            res += r
    C(f'subgroup_ballot_w{W}', '''
#!amber
# ARGS: --subgroup-size $(W)
# subgroupBallot and the ballot bit operations (BitCount, Inclusive/Exclusive
# BitCount, FindLSB/MSB, BitExtract, InverseBallot); a ballot inside a
# divergent branch holds only the active lanes' bits. 64 invocations,
# subgroups of $(W); 16 words per invocation (7 = not in the branch).
SHADER compute bal GLSL
#version 450
$(EXT)
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint lane = gl_SubgroupInvocationID;
  uint x = inb.v[i];
  uint b = 16u * i;
  bool p = (x % 3u) == 0u;
  uvec4 m = subgroupBallot(p);
  o.v[b + 0u] = m.x;
  o.v[b + 1u] = m.y;
  o.v[b + 2u] = subgroupBallotBitCount(m);
  o.v[b + 3u] = subgroupBallotInclusiveBitCount(m);
  o.v[b + 4u] = subgroupBallotExclusiveBitCount(m);
  o.v[b + 5u] = subgroupBallotFindLSB(m);
  o.v[b + 6u] = subgroupBallotFindMSB(m);
  o.v[b + 7u] = uint(subgroupBallotBitExtract(m, lane ^ 1u));
  o.v[b + 8u] = uint(subgroupInverseBallot(m));
  o.v[b + 9u] = 7u; o.v[b + 10u] = 7u; o.v[b + 11u] = 7u; o.v[b + 12u] = 7u;
  if (x >= 50u) {
    uvec4 h = subgroupBallot(true);
    o.v[b + 9u] = h.x;
    o.v[b + 10u] = h.y;
    o.v[b + 11u] = subgroupBallotBitCount(h);
    o.v[b + 12u] = subgroupBallotExclusiveBitCount(h);
  }
  o.v[b + 13u] = 0u; o.v[b + 14u] = 0u; o.v[b + 15u] = 0u;
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(xs))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 1024 FILL 0

PIPELINE compute pipe
  ATTACH bal
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')
