from lib import *
import random
EXT = '''#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require'''

# ---------- subgroup_partial_wW ----------
L = 20
for W in (8, 32):
    res = []
    nsg = (L + W - 1) // W
    for i in range(L):
        lane, sg = i % W, i // W
        cnt = min(W, L - sg * W)
        res += [nsg, sg, lane, cnt, cnt, int(lane == 0), lane, cnt - 1, (1 << cnt) - 1, W, 0, 0]
    C(f'subgroup_partial_w{W}', '''
#!amber
# ARGS: --subgroup-size $(W)
# A 20-invocation workgroup with subgroups of $(W): the last subgroup is
# partial and its missing lanes are inactive, so they contribute nothing to
# reductions, ballots and scans. gl_SubgroupSize stays $(W).
SHADER compute part GLSL
#version 450
$(EXT)
layout(local_size_x = 20) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint b = 12u * i;
  uvec4 m = subgroupBallot(true);
  o.v[b + 0u] = gl_NumSubgroups;
  o.v[b + 1u] = gl_SubgroupID;
  o.v[b + 2u] = gl_SubgroupInvocationID;
  o.v[b + 3u] = subgroupAdd(1u);
  o.v[b + 4u] = subgroupBallotBitCount(m);
  o.v[b + 5u] = uint(subgroupElect());
  o.v[b + 6u] = subgroupExclusiveAdd(1u);
  o.v[b + 7u] = subgroupMax(gl_SubgroupInvocationID);
  o.v[b + 8u] = m.x;
  o.v[b + 9u] = gl_SubgroupSize;
  o.v[b + 10u] = 0u;
  o.v[b + 11u] = 0u;
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 240 FILL 0

PIPELINE compute pipe
  ATTACH part
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
$(expect('out_buf', res, per_line=12))
''')

# ---------- subgroup_reconverge_w16 ----------
W = 16
rnd = random.Random(5)
ns = [rnd.randint(0, 6) for _ in range(32)]
ns[0] = 0; ns[16] = 6
res = []
for i in range(32):
    lane = i % W; base = i - lane; idx = list(range(base, base + W))
    # if/else: even lanes sum lane ids of even lanes; odd lanes count odd lanes
    if lane % 2 == 0: a = sum(j % W for j in idx if (j % W) % 2 == 0)
    else: a = len([j for j in idx if (j % W) % 2 == 1])
    # loop: iteration k active lanes = those with ns > k; each adds subgroupAdd(1) per iteration
    acc = 0
    for k in range(ns[i]):
        acc += len([j for j in idx if ns[j] > k])
    # after early-return of lanes with lane % 4 == 3: full count of survivors
    surv = [j for j in idx if (j % W) % 4 != 3]
    if lane % 4 == 3:
        res += [a, acc, 0xBEEF, 0]
    else:
        res += [a, acc, len(surv), 0]
C('subgroup_reconverge_w16', '''
#!amber
# ARGS: --subgroup-size 16
# Reconvergence: subgroup ops in both arms of an if/else see only that arm's
# lanes; inside a loop with per-lane trip counts, iteration k sees the lanes
# still looping; after an early return only the surviving lanes take part.
# 32 invocations, 4 words each (48879 = 0xBEEF for lanes that returned).
SHADER compute recon GLSL
#version 450
$(EXT)
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint lane = gl_SubgroupInvocationID;
  uint n = inb.v[i];
  uint b = 4u * i;
  uint a;
  if (lane % 2u == 0u) {
    a = subgroupAdd(lane);
  } else {
    a = subgroupAdd(1u);
  }
  o.v[b + 0u] = a;
  uint acc = 0u;
  for (uint k = 0u; k < n; ++k) {
    acc += subgroupAdd(1u);
  }
  o.v[b + 1u] = acc;
  o.v[b + 2u] = 0xBEEFu;
  o.v[b + 3u] = 0u;
  if (lane % 4u == 3u) return;
  o.v[b + 2u] = subgroupBallotBitCount(subgroupBallot(true));
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(ns))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 128 FILL 0

PIPELINE compute pipe
  ATTACH recon
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')

# ---------- repeat_copy_derive ----------
C('repeat_copy_derive', '''
#!amber
# REPEAT, COPY, EQ_BUFFER and DERIVE_PIPELINE: the kernel adds 3 to every
# element; REPEAT 5 runs it five times, COPY snapshots the buffer, and a
# derived pipeline binds a second buffer in place of the first.
SHADER compute inc GLSL
#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Data { uint v[]; } d;
void main() {
  d.v[gl_GlobalInvocationID.x] += 3u;
}
END

BUFFER values DATA_TYPE uint32 SIZE 16 SERIES_FROM 10 INC_BY 2
BUFFER other DATA_TYPE uint32 SIZE 16 FILL 100
BUFFER snapshot DATA_TYPE uint32 SIZE 16 FILL 0
BUFFER reference DATA_TYPE uint32 DATA
$(data([10 + 2 * i + 15 for i in range(16)]))
END

PIPELINE compute pipe
  ATTACH inc
  BIND BUFFER values AS storage DESCRIPTOR_SET 0 BINDING 0
END

DERIVE_PIPELINE pipe_other FROM pipe
  BIND BUFFER other AS storage DESCRIPTOR_SET 0 BINDING 0
END

REPEAT 5
RUN pipe 2 1 1
END
COPY values TO snapshot
RUN pipe_other 1 1 1
$(expect('values', [10 + 2 * i + 15 for i in range(16)]))
EXPECT snapshot EQ_BUFFER reference
$(expect('other', [103] * 8 + [100] * 8))
EXPECT other IDX 0 GE 103
EXPECT other IDX 32 LT 101
''')
