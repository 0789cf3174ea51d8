from lib import *
import random
rnd = random.Random(31)

# ---------- hlsl_basic_entry ----------
fin = [float(rnd.randint(-200, 200)) / 4.0 for _ in range(32)]
res = []
for wg in range(2):
    for ty in range(2):
        for tx in range(8):
            g = wg * 16 + ty * 8 + tx
            f = fin[g]
            t = int(f)            # truncation toward zero
            res += [u32(t * 2 + ty), g, tx + 100 * ty + 1000 * wg]
C('hlsl_basic_entry', '''
#!amber
# HLSL compute shader with a non-default entry point (CSMain), structured
# buffers with explicit Vulkan bindings, SV_DispatchThreadID/SV_GroupThreadID/
# SV_GroupID with numthreads(8,2,1) and 2 groups; float->int truncation.
SHADER compute hlsl_cs HLSL
[[vk::binding(0, 0)]] StructuredBuffer<float> InVals;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> OutVals;

[numthreads(8, 2, 1)]
void CSMain(uint3 dtid : SV_DispatchThreadID, uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID) {
  uint g = gid.x * 16 + gtid.y * 8 + gtid.x;
  int t = (int)InVals[g];
  OutVals[3 * g + 0] = (uint)(t * 2 + (int)gtid.y);
  OutVals[3 * g + 1] = dtid.x + 8 * dtid.y + 8 * gid.x;
  OutVals[3 * g + 2] = gtid.x + 100 * gtid.y + 1000 * gid.x;
}
END

BUFFER in_buf DATA_TYPE float DATA
$(data(fin))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 96 FILL 0

PIPELINE compute pipe
  ATTACH hlsl_cs ENTRY_POINT CSMain
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 2 1 1
$(expect('out_buf', res, per_line=12))
''')

# ---------- hlsl_groupshared_reduce ----------
vals = [rnd.randint(0, 5000) for _ in range(96)]
res = []
for w in range(3):
    seg = vals[w * 32:(w + 1) * 32]
    res += [sum(seg), max(seg)]
C('hlsl_groupshared_reduce', '''
#!amber
# HLSL groupshared memory with GroupMemoryBarrierWithGroupSync: tree
# reduction (sum, max) over 32 threads, 3 groups; entry point "reduce".
SHADER compute hlsl_red HLSL
[[vk::binding(0, 0)]] RWStructuredBuffer<uint> Data;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> Result;
groupshared uint ssum[32];
groupshared uint smax[32];

[numthreads(32, 1, 1)]
void reduce(uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 gid : SV_GroupID) {
  uint x = Data[dtid.x];
  ssum[gi] = x;
  smax[gi] = x;
  GroupMemoryBarrierWithGroupSync();
  for (uint stride = 16; stride > 0; stride >>= 1) {
    if (gi < stride) {
      ssum[gi] += ssum[gi + stride];
      smax[gi] = max(smax[gi], smax[gi + stride]);
    }
    GroupMemoryBarrierWithGroupSync();
  }
  if (gi == 0) {
    Result[2 * gid.x] = ssum[0];
    Result[2 * gid.x + 1] = smax[0];
  }
}
END

BUFFER data_buf DATA_TYPE uint32 DATA
$(data(vals))
END
BUFFER result_buf DATA_TYPE uint32 SIZE 6 FILL 0

PIPELINE compute pipe
  ATTACH hlsl_red ENTRY_POINT reduce
  BIND BUFFER data_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER result_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 3 1 1
$(expect('result_buf', res))
''')

# ---------- hlsl_wave_ops_w8 ----------
W = 8
vals = [rnd.randint(0, 100) for _ in range(32)]
res = []
for i in range(32):
    lane = i % W; base = i - lane; idx = list(range(base, base + W))
    pm = 0
    for j in idx:
        if vals[j] % 2 == 0: pm |= 1 << (j % W)
    act = [j for j in idx if vals[j] > 50]
    r = [lane, W, sum(vals[j] for j in idx), sum(vals[j] for j in idx if j <= i), pm, vals[base + 2], int(lane == 0)]
    r += [len(act), max(vals[j] for j in act)] if i in act else [0xAB, 0xAB]
    r += [0, 0, 0]
    res += r
C('hlsl_wave_ops_w8', '''
#!amber
# ARGS: --subgroup-size 8
# HLSL wave intrinsics (default entry point main): WaveGetLaneIndex,
# WaveGetLaneCount, WaveActiveSum, WavePrefixSum, WaveActiveBallot,
# WaveReadLaneAt, WaveIsFirstLane, and WaveActiveCountBits/WaveActiveMax in
# a divergent branch (171 = 0xAB: not in the branch). 32 threads, waves of 8.
# HLSL's WavePrefixSum is exclusive, but glslang 12 (Debian 12) lowers it to
# an InclusiveScan: the simulator runs the SPIR-V, so inclusive sums are expected.
SHADER compute hlsl_wave HLSL
[[vk::binding(0, 0)]] StructuredBuffer<uint> InVals;
[[vk::binding(1, 0)]] RWStructuredBuffer<uint> OutVals;

[numthreads(32, 1, 1)]
void main(uint gi : SV_GroupIndex) {
  uint x = InVals[gi];
  uint b = 12 * gi;
  OutVals[b + 0] = WaveGetLaneIndex();
  OutVals[b + 1] = WaveGetLaneCount();
  OutVals[b + 2] = WaveActiveSum(x);
  OutVals[b + 3] = WavePrefixSum(x);
  OutVals[b + 4] = WaveActiveBallot(x % 2 == 0).x;
  OutVals[b + 5] = WaveReadLaneAt(x, 2);
  OutVals[b + 6] = WaveIsFirstLane() ? 1 : 0;
  OutVals[b + 7] = 0xAB;
  OutVals[b + 8] = 0xAB;
  if (x > 50) {
    OutVals[b + 7] = WaveActiveCountBits(true);
    OutVals[b + 8] = WaveActiveMax(x);
  }
  OutVals[b + 9] = 0;
  OutVals[b + 10] = 0;
  OutVals[b + 11] = 0;
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
$(data(vals))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 384 FILL 0

PIPELINE compute pipe
  ATTACH hlsl_wave
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res, per_line=12))
''')
