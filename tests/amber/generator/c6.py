from lib import *
import random
from c5 import EXT
rnd = random.Random(777)

# ---------- subgroup_shuffle_wW ----------
xs = [rnd.randint(0, 10000) for _ in range(64)]
for W in (8, 32):
    res = []
    for i in range(64):
        lane = i % W; base = i - lane
        g = lambda l: xs[base + l]
        r = [g((lane * 5 + 3) & (W - 1)), g(lane ^ 1), g(lane ^ 6),
             g(lane - 1) if lane >= 1 else 0xDEAD, g(lane - 3) if lane >= 3 else 0xDEAD,
             g(lane + 2) if lane + 2 < W else 0xDEAD,
             g(lane ^ 2) if lane % 2 == 0 else 5, g(W - 1 - lane)]
        res += r
    C(f'subgroup_shuffle_w{W}', '''
#!amber
# ARGS: --subgroup-size $(W)
# subgroupShuffle (computed index), ShuffleXor (1 and 6), ShuffleUp (1, 3),
# ShuffleDown (2); results from lanes outside the subgroup are replaced by
# 0xDEAD (57005) in the shader, so only defined values are checked. A
# ShuffleXor(2) inside an even-lanes branch reads only active lanes.
# 64 invocations, subgroups of $(W), 8 words each.
SHADER compute shuf GLSL
#version 450
$(EXT)
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint lane = gl_SubgroupInvocationID;
  uint n = gl_SubgroupSize;
  uint x = inb.v[i];
  uint b = 8u * i;
  o.v[b + 0u] = subgroupShuffle(x, (lane * 5u + 3u) & (n - 1u));
  o.v[b + 1u] = subgroupShuffleXor(x, 1u);
  o.v[b + 2u] = subgroupShuffleXor(x, 6u);
  uint up1 = subgroupShuffleUp(x, 1u);
  uint up3 = subgroupShuffleUp(x, 3u);
  uint dn2 = subgroupShuffleDown(x, 2u);
  o.v[b + 3u] = lane >= 1u ? up1 : 0xDEADu;
  o.v[b + 4u] = lane >= 3u ? up3 : 0xDEADu;
  o.v[b + 5u] = lane + 2u < n ? dn2 : 0xDEADu;
  o.v[b + 6u] = 5u;
  if (lane % 2u == 0u) {
    o.v[b + 6u] = subgroupShuffleXor(x, 2u);
  }
  o.v[b + 7u] = subgroupShuffle(x, n - 1u - lane);
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(xs))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 512 FILL 0

PIPELINE compute pipe
  ATTACH shuf
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')

# ---------- subgroup_broadcast_w16 ----------
W = 16
xs = [rnd.randint(0, 10000) for _ in range(64)]
res = []
for i in range(64):
    lane = i % W; base = i - lane
    inb = [l for l in range(W) if l >= 5 and l % 2 == 1]
    r = [xs[base + 3], xs[base + 15], xs[base], 9, 9]
    if lane in inb:
        r[3] = xs[base + inb[0]]
        r[4] = xs[base + 11]
    res += r + [0, 0, 0]
C('subgroup_broadcast_w16', '''
#!amber
# ARGS: --subgroup-size 16
# subgroupBroadcast with constant lanes 3 and 15, subgroupBroadcastFirst at
# full activity (lane 0) and inside a branch taken by odd lanes >= 5, where
# the first active lane is 5 (and broadcast from active lane 11).
SHADER compute bc GLSL
#version 450
$(EXT)
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint lane = gl_SubgroupInvocationID;
  uint x = inb.v[i];
  uint b = 8u * i;
  o.v[b + 0u] = subgroupBroadcast(x, 3u);
  o.v[b + 1u] = subgroupBroadcast(x, 15u);
  o.v[b + 2u] = subgroupBroadcastFirst(x);
  o.v[b + 3u] = 9u;
  o.v[b + 4u] = 9u;
  if (lane >= 5u && lane % 2u == 1u) {
    o.v[b + 3u] = subgroupBroadcastFirst(x);
    o.v[b + 4u] = subgroupBroadcast(x, 11u);
  }
  o.v[b + 5u] = 0u; o.v[b + 6u] = 0u; o.v[b + 7u] = 0u;
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(xs))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 512 FILL 1

PIPELINE compute pipe
  ATTACH bc
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')

# ---------- subgroup_reduce_wW ----------
NI = 128
us = [rnd.randint(1, 9) for _ in range(NI)]
is_ = [rnd.randint(-500, 500) for _ in range(NI)]
fs = [float(rnd.randint(-1000, 1000)) for _ in range(NI)]
bitsv = [rnd.randint(0, 0xFFFFFFFF) | 0x80000001 for _ in range(NI)]
for W in (4, 32, 64):
    res = []
    for i in range(NI):
        li = i % 64; lane = li % W; base = i - lane
        idx = list(range(base, base + W))
        def red(f, arr, sel=None):
            v = [arr[j] for j in idx if sel is None or sel(j)]
            acc = v[0]
            for t in v[1:]: acc = f(acc, t)
            return acc
        mul = red(lambda a, b: (a * b) & M32, us)
        andv = red(lambda a, b: a & b, bitsv); orv = red(lambda a, b: a | b, bitsv); xorv = red(lambda a, b: a ^ b, bitsv)
        r = [sum(us[j] for j in idx) & M32, mul, min(is_[j] for j in idx) & M32, max(is_[j] for j in idx) & M32,
             andv, orv, xorv, fbits(f32(sum(fs[j] for j in idx))), fbits(min(fs[j] for j in idx)), fbits(max(fs[j] for j in idx))]
        act = [j for j in idx if us[j] % 3 != 0]
        if i in act:
            r += [sum(us[j] for j in act), max(is_[j] for j in act) & M32, len(act)]
        else:
            r += [0xFFFF, 0xFFFF, 0xFFFF]
        r += [0, 0, 0]
        res += r
    C(f'subgroup_reduce_w{W}', '''
#!amber
# ARGS: --subgroup-size $(W)
# Subgroup reductions: add/mul/min/max/and/or/xor on uint/int, add/min/max on
# float (integral values, so every summation order is exact), and reductions
# inside a divergent branch (us % 3 != 0) that combine only the active lanes.
# 2 workgroups of 64, subgroups of $(W); 16 words per invocation
# (65535 = not in the branch).
SHADER compute redu GLSL
#version 450
$(EXT)
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer U { uint v[]; } us;
layout(std430, set = 0, binding = 1) buffer I { int v[]; } is;
layout(std430, set = 0, binding = 2) buffer F { float v[]; } fs;
layout(std430, set = 0, binding = 3) buffer Bits { uint v[]; } bits;
layout(std430, set = 0, binding = 4) buffer Out { uint v[]; } o;
void main() {
  uint g = gl_GlobalInvocationID.x;
  uint u = us.v[g];
  int s = is.v[g];
  float f = fs.v[g];
  uint m = bits.v[g];
  uint b = 16u * g;
  o.v[b + 0u] = subgroupAdd(u);
  o.v[b + 1u] = subgroupMul(u);
  o.v[b + 2u] = uint(subgroupMin(s));
  o.v[b + 3u] = uint(subgroupMax(s));
  o.v[b + 4u] = subgroupAnd(m);
  o.v[b + 5u] = subgroupOr(m);
  o.v[b + 6u] = subgroupXor(m);
  o.v[b + 7u] = floatBitsToUint(subgroupAdd(f));
  o.v[b + 8u] = floatBitsToUint(subgroupMin(f));
  o.v[b + 9u] = floatBitsToUint(subgroupMax(f));
  o.v[b + 10u] = 0xFFFFu; o.v[b + 11u] = 0xFFFFu; o.v[b + 12u] = 0xFFFFu;
  if (u % 3u != 0u) {
    o.v[b + 10u] = subgroupAdd(u);
    o.v[b + 11u] = uint(subgroupMax(s));
    o.v[b + 12u] = subgroupAdd(1u);
  }
  o.v[b + 13u] = 0u; o.v[b + 14u] = 0u; o.v[b + 15u] = 0u;
}
END

BUFFER u_buf DATA_TYPE uint32 DATA
$(data(us))
END
BUFFER i_buf DATA_TYPE int32 DATA
$(data(is_))
END
BUFFER f_buf DATA_TYPE float DATA
$(data(fs))
END
BUFFER bits_buf DATA_TYPE uint32 DATA
$(data(bitsv))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 2048 FILL 0

PIPELINE compute pipe
  ATTACH redu
  BIND BUFFER u_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER i_buf AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER f_buf AS storage DESCRIPTOR_SET 0 BINDING 2
  BIND BUFFER bits_buf AS storage DESCRIPTOR_SET 0 BINDING 3
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 4
END

RUN pipe 2 1 1
$(expect('out_buf', res))
''')

# ---------- subgroup_scan_wW ----------
us = [rnd.randint(1, 5) for _ in range(64)]
is_ = [rnd.randint(-100, 100) for _ in range(64)]
bitsv = [rnd.randint(0, 0xFFFFFFFF) for _ in range(64)]
INT_MAX, INT_MIN = 0x7FFFFFFF, 0x80000000
for W in (8, 16):
    res = []
    for i in range(64):
        lane = i % W; base = i - lane
        inc = list(range(base, i + 1)); exc = list(range(base, i))
        def fold(f, arr, ids, ident):
            acc = ident
            for j in ids: acc = f(acc, arr[j])
            return acc
        r = [fold(lambda a, b: (a + b) & M32, us, inc, 0), fold(lambda a, b: (a + b) & M32, us, exc, 0),
             fold(lambda a, b: (a * b) & M32, us, inc, 1), fold(lambda a, b: (a * b) & M32, us, exc, 1),
             u32(min([is_[j] for j in inc])), u32(min([is_[j] for j in exc])) if exc else INT_MAX,
             u32(max([is_[j] for j in inc])), u32(max([is_[j] for j in exc])) if exc else INT_MIN,
             fold(lambda a, b: a & b, bitsv, exc, M32), fold(lambda a, b: a | b, bitsv, inc, 0),
             fold(lambda a, b: a ^ b, bitsv, exc, 0)]
        act = [j for j in range(base, base + W) if us[j] >= 3]
        if i in act:
            r += [sum(us[j] for j in act if j <= i), sum(us[j] for j in act if j < i), len([j for j in act if j < i])]
        else:
            r += [0xEEEE] * 3
        r += [0, 0]
        res += r
    C(f'subgroup_scan_w{W}', '''
#!amber
# ARGS: --subgroup-size $(W)
# Inclusive and exclusive scans: add, mul, min/max on int (exclusive identity
# INT_MAX / INT_MIN for the first lane), and/or/xor; scans inside a divergent
# branch (u >= 3) run over the active lanes only. 64 invocations, subgroups
# of $(W); 16 words per invocation (61166 = 0xEEEE: not in the branch).
SHADER compute scan GLSL
#version 450
$(EXT)
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer U { uint v[]; } us;
layout(std430, set = 0, binding = 1) buffer I { int v[]; } is;
layout(std430, set = 0, binding = 2) buffer Bits { uint v[]; } bits;
layout(std430, set = 0, binding = 3) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint u = us.v[i];
  int s = is.v[i];
  uint m = bits.v[i];
  uint b = 16u * i;
  o.v[b + 0u] = subgroupInclusiveAdd(u);
  o.v[b + 1u] = subgroupExclusiveAdd(u);
  o.v[b + 2u] = subgroupInclusiveMul(u);
  o.v[b + 3u] = subgroupExclusiveMul(u);
  o.v[b + 4u] = uint(subgroupInclusiveMin(s));
  o.v[b + 5u] = uint(subgroupExclusiveMin(s));
  o.v[b + 6u] = uint(subgroupInclusiveMax(s));
  o.v[b + 7u] = uint(subgroupExclusiveMax(s));
  o.v[b + 8u] = subgroupExclusiveAnd(m);
  o.v[b + 9u] = subgroupInclusiveOr(m);
  o.v[b + 10u] = subgroupExclusiveXor(m);
  o.v[b + 11u] = 0xEEEEu; o.v[b + 12u] = 0xEEEEu; o.v[b + 13u] = 0xEEEEu;
  if (u >= 3u) {
    o.v[b + 11u] = subgroupInclusiveAdd(u);
    o.v[b + 12u] = subgroupExclusiveAdd(u);
    o.v[b + 13u] = subgroupExclusiveAdd(1u);
  }
  o.v[b + 14u] = 0u; o.v[b + 15u] = 0u;
}
END

BUFFER u_buf DATA_TYPE uint32 DATA
$(data(us))
END
BUFFER i_buf DATA_TYPE int32 DATA
$(data(is_))
END
BUFFER bits_buf DATA_TYPE uint32 DATA
$(data(bitsv))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 1024 FILL 0

PIPELINE compute pipe
  ATTACH scan
  BIND BUFFER u_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER i_buf AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER bits_buf AS storage DESCRIPTOR_SET 0 BINDING 2
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 3
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')
