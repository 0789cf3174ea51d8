from lib import *
import random
rnd = random.Random(99)

# ---------- shared_tree_reduction ----------
NWG, L = 4, 64
xs = [1 + i for i in range(NWG * L)]
red = []
back = []
for w in range(NWG):
    seg = xs[w * L:(w + 1) * L]
    tot = sum(seg); mx = max((x * 37) % 101 for x in seg)
    red += [tot, mx]
    back += [tot - x for x in seg]
C('shared_tree_reduction', '''
#!amber
# Shared-memory tree reduction (sum and max) with a barrier after every step,
# 4 workgroups of 64. After the last barrier every invocation reads the
# workgroup total back from shared memory, so invocations of all subgroups
# must see each other's writes.
SHADER compute tree GLSL
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Red { uint v[]; } red;
layout(std430, set = 0, binding = 2) buffer Back { uint v[]; } back;
shared uint s_sum[64];
shared uint s_max[64];
void main() {
  uint l = gl_LocalInvocationIndex;
  uint g = gl_GlobalInvocationID.x;
  uint x = inb.v[g];
  s_sum[l] = x;
  s_max[l] = (x * 37u) % 101u;
  barrier();
  for (uint stride = 32u; stride > 0u; stride >>= 1) {
    if (l < stride) {
      s_sum[l] += s_sum[l + stride];
      s_max[l] = max(s_max[l], s_max[l + stride]);
    }
    barrier();
  }
  if (l == 0u) {
    red.v[2u * gl_WorkGroupID.x] = s_sum[0];
    red.v[2u * gl_WorkGroupID.x + 1u] = s_max[0];
  }
  back.v[g] = s_sum[0] - x;
}
END

BUFFER in_buf DATA_TYPE uint32 SIZE 256 SERIES_FROM 1 INC_BY 1
BUFFER red_buf DATA_TYPE uint32 SIZE 8 FILL 0
BUFFER back_buf DATA_TYPE uint32 SIZE 256 FILL 0

PIPELINE compute pipe
  ATTACH tree
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER red_buf AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER back_buf AS storage DESCRIPTOR_SET 0 BINDING 2
END

RUN pipe 4 1 1
$(expect('red_buf', red))
$(expect('back_buf', back))
''')

# ---------- shared_reverse_2d ----------
vals = [rnd.randint(0, 100000) for _ in range(128)]
rev = []
for w in range(2):
    for ly in range(4):
        for lx in range(16):
            li = lx + 16 * ly
            rev.append(vals[w * 64 + 63 - li] + 1000000 * w)
C('shared_reverse_2d', '''
#!amber
# A 16x4 workgroup stores into shared memory by LocalInvocationIndex, waits
# at a barrier, and reads the mirrored slot (63 - index), which was written by
# a different subgroup for any subgroup size below 64. Two workgroups along x;
# global buffer index = 64 * WorkgroupID.x + LocalInvocationIndex.
SHADER compute revs GLSL
#version 450
layout(local_size_x = 16, local_size_y = 4) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
shared uint s[64];
void main() {
  uint li = gl_LocalInvocationIndex;
  uint base = 64u * gl_WorkGroupID.x;
  s[li] = inb.v[base + li];
  barrier();
  o.v[base + li] = s[63u - li] + 1000000u * gl_WorkGroupID.x;
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(vals))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 128 FILL 0

PIPELINE compute pipe
  ATTACH revs
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 2 1 1
$(expect('out_buf', rev))
''')

# ---------- shared_prefix_sum ----------
vals = [rnd.randint(0, 1000) for _ in range(128)]
ps = []
for w in range(2):
    acc = 0
    for l in range(64):
        acc += vals[w * 64 + l]; ps.append(acc)
C('shared_prefix_sum', '''
#!amber
# Hillis-Steele inclusive prefix sum over a 64-wide workgroup in shared memory,
# two barriers per step (read, barrier, write, barrier). Two workgroups.
SHADER compute scan GLSL
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
shared uint t[64];
void main() {
  uint l = gl_LocalInvocationIndex;
  uint g = gl_GlobalInvocationID.x;
  t[l] = inb.v[g];
  barrier();
  for (uint off = 1u; off < 64u; off <<= 1) {
    uint v = t[l];
    if (l >= off) v += t[l - off];
    barrier();
    t[l] = v;
    barrier();
  }
  o.v[g] = t[l];
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(vals))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 128 FILL 0

PIPELINE compute pipe
  ATTACH scan
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 2 1 1
$(expect('out_buf', ps))
''')

# ---------- shared_atomics_histogram ----------
vals = [rnd.randint(0, 1000) for _ in range(128)]
hist = []
for w in range(2):
    seg = vals[w * 64:(w + 1) * 64]
    h = [0] * 8
    for x in seg: h[x % 8] += 1
    hist += h + [max(seg), min(seg), 0]
    # xor of all
    xo = 0
    for x in seg: xo ^= x
    hist[-1] = xo
C('shared_atomics_histogram', '''
#!amber
# Atomics on shared memory: an 8-bin histogram (atomicAdd), atomicMax,
# atomicMin and atomicXor, initialised by some invocations and published
# after barriers. Two workgroups of 64; 11 words out per workgroup.
SHADER compute hist GLSL
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
shared uint h[8];
shared uint smax;
shared uint smin;
shared uint sxor;
void main() {
  uint l = gl_LocalInvocationIndex;
  uint x = inb.v[gl_GlobalInvocationID.x];
  if (l < 8u) h[l] = 0u;
  if (l == 8u) { smax = 0u; smin = 0xFFFFFFFFu; sxor = 0u; }
  barrier();
  atomicAdd(h[x % 8u], 1u);
  atomicMax(smax, x);
  atomicMin(smin, x);
  atomicXor(sxor, x);
  barrier();
  uint base = 11u * gl_WorkGroupID.x;
  if (l < 8u) o.v[base + l] = h[l];
  if (l == 63u) { o.v[base + 8u] = smax; o.v[base + 9u] = smin; o.v[base + 10u] = sxor; }
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(vals))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 22 FILL 7

PIPELINE compute pipe
  ATTACH hist
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 2 1 1
$(expect('out_buf', hist, per_line=11))
''')

# ---------- atomics_storage ----------
N = 128
ivals = [rnd.randint(-1000, 1000) for _ in range(N)]
uvals = [rnd.randint(0, 0xFFFF) for _ in range(N)]
andv = 0xFFFFFFFF; orv = 0; xorv = 0
for u in uvals: andv &= (u | 0xFFFF0000) ; orv |= u; xorv ^= u
state = [N,                  # counter
         u32(min(ivals)), u32(max(ivals)), min(uvals), max(uvals),
         andv, orv, xorv,
         42, 7,               # exchange: final value, returned old value
         1,                   # number of CompSwap winners
         3, 3,                # failing CompSwap: value unchanged, returned old
         u32(sum(ivals))]     # atomicAdd on int with negatives
C('atomics_storage', '''
#!amber
# Atomics on a storage buffer, 2 workgroups x 64 invocations.
#  - atomicAdd counter: the returned old values must be a permutation of
#    0..127, checked by setting bit `old` in a 128-bit mask.
#  - atomicMin/Max on int and uint, atomicAnd/Or/Xor, atomicAdd on int.
#  - atomicExchange by one invocation (returns the old value 7).
#  - atomicCompSwap(lock, 0, id+1) by everyone: exactly one wins.
#  - atomicCompSwap whose comparison fails leaves the value alone.
SHADER compute atom GLSL
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer IVals { int v[]; } iv;
layout(std430, set = 0, binding = 1) buffer UVals { uint v[]; } uv;
layout(std430, set = 0, binding = 2) buffer State {
  uint counter;
  int imin; int imax; uint umin; uint umax;
  uint andv; uint orv; uint xorv;
  uint xchg; uint xchg_old;
  uint winners;
  uint cas_val; uint cas_old;
  int isum;
  uint lock;
  uint seen[4];
} st;
void main() {
  uint g = gl_GlobalInvocationID.x;
  uint old = atomicAdd(st.counter, 1u);
  atomicOr(st.seen[old / 32u], 1u << (old % 32u));
  atomicMin(st.imin, iv.v[g]);
  atomicMax(st.imax, iv.v[g]);
  atomicMin(st.umin, uv.v[g]);
  atomicMax(st.umax, uv.v[g]);
  atomicAnd(st.andv, uv.v[g] | 0xFFFF0000u);
  atomicOr(st.orv, uv.v[g]);
  atomicXor(st.xorv, uv.v[g]);
  atomicAdd(st.isum, iv.v[g]);
  if (g == 77u) st.xchg_old = atomicExchange(st.xchg, 42u);
  if (atomicCompSwap(st.lock, 0u, g + 1u) == 0u) atomicAdd(st.winners, 1u);
  if (g == 5u) st.cas_old = atomicCompSwap(st.cas_val, 5u, 9u);
}
END

BUFFER iv_buf DATA_TYPE int32 DATA
$(data(ivals))
END
BUFFER uv_buf DATA_TYPE uint32 DATA
$(data(uvals))
END
# counter imin imax umin umax and or xor xchg xchg_old winners cas_val cas_old isum lock seen[4]
BUFFER state DATA_TYPE uint32 DATA
0 2147483647 2147483648 4294967295 0 4294967295 0 0 7 0 0 3 0 0 0 0 0 0 0
END

PIPELINE compute pipe
  ATTACH atom
  BIND BUFFER iv_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER uv_buf AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER state AS storage DESCRIPTOR_SET 0 BINDING 2
END

RUN pipe 2 1 1
$(expect('state', state))
EXPECT state IDX 56 NE 0
$(expect('state', [0xFFFFFFFF] * 4, start=15))
''')
