from lib import *

# ---------- vectors_composites ----------
a = [1.0, 2.0, 3.0, 4.0]
b = [8.0, 6.0, 4.0, 2.0]                      # a.wzyx * 2
dotab = sum(x * y for x, y in zip(a, b))
crs = [a[1] * 1 - a[2] * 0, a[2] * 0 - a[0] * 1, a[0] * 0 - a[1] * 0]
# mat2 m = mat2(1,2,3,4): columns (1,2),(3,4). m*v with v=(1,1) -> (4,6); v*m -> (3,7)
vout = b + [dotab] + crs + [5.0, 4.0, 6.0, 3.0, 7.0, 0.6, 0.8]
vout = [f32(x) for x in vout]
# int part: arr[k] = k*k, struct, swizzle writes
idx = 3
iout = [idx * idx, 7 + 3, 1, 0, 2, 4, 3, 10]
C('vectors_composites', '''
#!amber
# vec4 swizzles, dot/cross/length/normalize, mat2 * vec2 and vec2 * mat2,
# structs, function-local arrays with dynamic indexing, composite insert via
# swizzle assignment, any/all over boolean vectors.
SHADER compute vecs GLSL
#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer In { float f[]; } inb;
layout(std430, set = 0, binding = 1) buffer FOut { float r[]; } fo;
layout(std430, set = 0, binding = 2) buffer IOut { int r[]; } io;
struct S { vec2 p; int k[3]; };
void main() {
  vec4 a = vec4(inb.f[0], inb.f[1], inb.f[2], inb.f[3]);
  vec4 b = a.wzyx * 2.0;
  fo.r[0] = b.x; fo.r[1] = b.y; fo.r[2] = b.z; fo.r[3] = b.w;
  fo.r[4] = dot(a, b);
  vec3 c = cross(a.xyz, vec3(0.0, 0.0, a.x));
  fo.r[5] = c.x; fo.r[6] = c.y; fo.r[7] = c.z;
  fo.r[8] = length(vec2(a.z, a.w));
  mat2 m = mat2(a.x, a.y, a.z, a.w);
  vec2 v = vec2(a.x);
  vec2 mv = m * v;
  vec2 vm = v * m;
  fo.r[9] = mv.x; fo.r[10] = mv.y; fo.r[11] = vm.x; fo.r[12] = vm.y;
  vec2 n = normalize(vec2(a.z, a.w));
  fo.r[13] = n.x; fo.r[14] = n.y;

  int arr[8];
  for (int i = 0; i < 8; ++i) arr[i] = i * i;
  int k = int(inb.f[4]);
  io.r[0] = arr[k];
  S s;
  s.p = a.xy;
  s.k[0] = 7; s.k[1] = k; s.k[2] = -1;
  io.r[1] = s.k[0] + s.k[1];
  ivec4 iv = ivec4(a);
  iv.yw = ivec2(9, 10);
  bvec4 lt = lessThan(iv, ivec4(2));
  io.r[2] = int(any(lt));
  io.r[3] = int(all(lt));
  io.r[4] = int(s.p.y);
  io.r[5] = iv.x + iv.z;
  io.r[6] = k;
  io.r[7] = iv.w;
}
END

BUFFER in_buf DATA_TYPE float DATA
1.0 2.0 3.0 4.0 3.0
END
BUFFER fout DATA_TYPE float SIZE 15 FILL 0.0
BUFFER iout DATA_TYPE int32 SIZE 8 FILL 0

PIPELINE compute pipe
  ATTACH vecs
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER fout AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER iout AS storage DESCRIPTOR_SET 0 BINDING 2
END

RUN pipe 1 1 1
$(expect('fout', vout[:13]))
EXPECT fout IDX 52 TOLERANCE 0.000001 EQ 0.6 0.8
$(expect('iout', iout))
''')

# ---------- vec3_std430 ----------
vin = [[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0], [10.0, 20.0, 30.0], [0.25, -0.75, 8.0]]
vout = []
for i, v in enumerate(vin): vout += [x * 2.0 + i for x in v]
flat = list(vout)
lens = [f32(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) for v in vin]   # dot(v,v), exact in f32 here
pk = []
for i, v in enumerate(vin): pk += v + [float(i) + 0.5]
C('vec3_std430', '''
#!amber
# vec3 arrays in std430 have a 16-byte stride (Amber pads vec3 to 16 bytes);
# a struct { vec3 pos; float w; } packs w into the vec3's 4th slot (offset 12).
SHADER compute v3 GLSL
#version 450
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer In { vec3 v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { vec3 v[]; } outb;
layout(std430, set = 0, binding = 2) buffer Flat { float f[]; } fl;
struct P { vec3 pos; float w; };
layout(std430, set = 0, binding = 3) buffer Packed { P p[]; } pk;
void main() {
  uint i = gl_LocalInvocationID.x;
  vec3 x = inb.v[i];
  outb.v[i] = x * 2.0 + vec3(float(i));
  fl.f[3u * i + 0u] = outb.v[i].x;
  fl.f[3u * i + 1u] = outb.v[i].y;
  fl.f[3u * i + 2u] = outb.v[i].z;
  fl.f[12u + i] = dot(x, x);
  pk.p[i].pos = x;
  pk.p[i].w = float(i) + 0.5;
}
END

BUFFER in_buf DATA_TYPE vec3<float> DATA
$(data(sum(vin, []), per_line=3))
END
BUFFER out_buf DATA_TYPE vec3<float> SIZE 4 FILL 0.0
BUFFER flat_buf DATA_TYPE float SIZE 16 FILL 0.0
BUFFER packed_buf DATA_TYPE float SIZE 16 FILL 0.0

PIPELINE compute pipe
  ATTACH v3
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER flat_buf AS storage DESCRIPTOR_SET 0 BINDING 2
  BIND BUFFER packed_buf AS storage DESCRIPTOR_SET 0 BINDING 3
END

RUN pipe 1 1 1
# element i of a vec3 buffer starts at byte 16*i
EXPECT out_buf IDX 0 EQ $(' '.join(fmt(x) for x in vout[0:3]))
EXPECT out_buf IDX 16 EQ $(' '.join(fmt(x) for x in vout[3:6]))
EXPECT out_buf IDX 32 EQ $(' '.join(fmt(x) for x in vout[6:9]))
EXPECT out_buf IDX 48 EQ $(' '.join(fmt(x) for x in vout[9:12]))
$(expect('flat_buf', flat + lens))
$(expect('packed_buf', pk))
''')

# ---------- uniform_std140 ----------
scale = [2.0, 3.0, 0.5, -1.0]
arr = [10.0, 20.0, 30.0, 40.0]
kk = 3.0
raw = scale + sum([[x, 0.0, 0.0, 0.0] for x in arr], []) + [kk, 0.0, 0.0, 0.0]
w = [1.5, -2.0, 4.0, 8.0]
res = []
for i in range(4):
    res.append(f32(arr[i] * scale[i] + w[i] + kk))
res2 = [f32(sum(arr)), f32(w[3] - w[0])]
C('uniform_std140', '''
#!amber
# Uniform buffers use std140: scalar array elements are padded to 16 bytes.
# ubo_a is laid out by hand as raw floats (vec4 at 0, float[4] at 16 with
# stride 16, float at 80); ubo_b relies on Amber's STD140 layout of float[].
SHADER compute ubo GLSL
#version 450
layout(local_size_x = 4) in;
layout(std140, set = 0, binding = 0) uniform A { vec4 scale; float arr[4]; float k; } ua;
layout(std140, set = 0, binding = 1) uniform B { float w[4]; } ub;
layout(std430, set = 0, binding = 2) buffer Out { float r[]; } o;
void main() {
  uint i = gl_LocalInvocationID.x;
  o.r[i] = ua.arr[i] * ua.scale[i] + ub.w[i] + ua.k;
  if (i == 0u) {
    o.r[4] = ua.arr[0] + ua.arr[1] + ua.arr[2] + ua.arr[3];
    o.r[5] = ub.w[3] - ub.w[0];
  }
}
END

BUFFER ubo_a DATA_TYPE float DATA
$(data(raw, per_line=4))
END
BUFFER ubo_b DATA_TYPE float[] STD140 DATA
$(data(w))
END
BUFFER out_buf DATA_TYPE float SIZE 6 FILL 0.0

PIPELINE compute pipe
  ATTACH ubo
  BIND BUFFER ubo_a AS uniform DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER ubo_b AS uniform DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 2
END

RUN pipe 1 1 1
$(expect('out_buf', res + res2))
''')

# ---------- push_constants ----------
pc = [5, 3, 100, 0xFFFFFFFF]
N = 16
res = [(pc[1] * (i + pc[0]) + pc[2]) & M32 for i in range(N)] + [u32(pc[3] + 2)]
C('push_constants', '''
#!amber
# Push constants bound with BIND BUFFER ... AS push_constant.
SHADER compute pcs GLSL
#version 450
layout(local_size_x = 16) in;
layout(push_constant) uniform PC { uint offset; uint scale; uint bias; uint big; } pc;
layout(std430, set = 0, binding = 0) buffer Out { uint r[]; } o;
void main() {
  uint i = gl_GlobalInvocationID.x;
  o.r[i] = pc.scale * (i + pc.offset) + pc.bias;
  if (i == 0u) o.r[16] = pc.big + 2u;
}
END

BUFFER pc_buf DATA_TYPE uint32 DATA
$(data(pc))
END
BUFFER out_buf DATA_TYPE uint32 SIZE 17 FILL 0

PIPELINE compute pipe
  ATTACH pcs
  BIND BUFFER pc_buf AS push_constant
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')

# ---------- spec_constants ----------
A, B, F = 100, -2, 0.25
r = [A, u32(B), fbits(F * 4.0), u32(A * 2 + B), 7, fbits(1.5)]
C('spec_constants', '''
#!amber
# Specialization constants: A (uint) and F (float) are specialized, B keeps its
# default, spec-constant expressions (A * 2 + B) follow the specialized value.
# pipe_default attaches the same shader with no SPECIALIZE.
SHADER compute spec GLSL
#version 450
layout(local_size_x = 1) in;
layout(constant_id = 1) const uint A = 7u;
layout(constant_id = 2) const int B = -2;
layout(constant_id = 3) const float F = 1.5;
const int AB = int(A) * 2 + B;
layout(std430, set = 0, binding = 0) buffer Out { uint r[]; } o;
void main() {
  o.r[0] = A;
  o.r[1] = uint(B);
  o.r[2] = floatBitsToUint(F * 4.0);
  o.r[3] = uint(AB);
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 4 FILL 0
BUFFER out_default DATA_TYPE uint32 SIZE 4 FILL 0

PIPELINE compute pipe
  ATTACH spec SPECIALIZE 1 AS uint32 100 SPECIALIZE 3 AS float 0.25
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

PIPELINE compute pipe_default
  ATTACH spec
  BIND BUFFER out_default AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
RUN pipe_default 1 1 1
$(expect('out_buf', r[:4]))
$(expect('out_default', [7, u32(-2), fbits(6.0), 12]))
''')

# ---------- spec_local_size ----------
def ls_res(X, nwg):
    return [X * 1000 + (g % X) + 100 * (g // X) for g in range(X * nwg)]
C('spec_local_size', '''
#!amber
# local_size_x_id: the workgroup width is specialization constant 0. The same
# shader runs with X = 16 (3 workgroups) and X = 8 (2 workgroups).
SHADER compute lsx GLSL
#version 450
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) buffer Out { uint r[]; } o;
void main() {
  uint g = gl_GlobalInvocationID.x;
  o.r[g] = gl_WorkGroupSize.x * 1000u + gl_LocalInvocationID.x + 100u * gl_WorkGroupID.x;
}
END

BUFFER out16 DATA_TYPE uint32 SIZE 48 FILL 0
BUFFER out8 DATA_TYPE uint32 SIZE 16 FILL 0

PIPELINE compute pipe16
  ATTACH lsx SPECIALIZE 0 AS uint32 16
  BIND BUFFER out16 AS storage DESCRIPTOR_SET 0 BINDING 0
END

PIPELINE compute pipe8
  ATTACH lsx SPECIALIZE 0 AS uint32 8
  BIND BUFFER out8 AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe16 3 1 1
RUN pipe8 2 1 1
$(expect('out16', ls_res(16, 3)))
$(expect('out8', ls_res(8, 2)))
''')

# ---------- builtins_3d ----------
LX, LY, LZ = 4, 2, 2
NX, NY, NZ = 2, 3, 1
GX, GY, GZ = LX * NX, LY * NY, LZ * NZ
outv = [0] * (GX * GY * GZ * 16)
for wz in range(NZ):
    for wy in range(NY):
        for wx in range(NX):
            for lz in range(LZ):
                for ly in range(LY):
                    for lx in range(LX):
                        gx, gy, gz = wx * LX + lx, wy * LY + ly, wz * LZ + lz
                        lin = gx + GX * (gy + GY * gz)
                        li = lx + LX * (ly + LY * lz)
                        outv[lin * 16:(lin + 1) * 16] = [gx, gy, gz, lx, ly, lz, li, wx, wy, wz, NX, NY, NZ, LX, LY, LZ]
C('builtins_3d', '''
#!amber
# Compute builtins with a 4x2x2 workgroup and a 2x3x1 dispatch (96
# invocations). Invocation with global id (x,y,z) writes 16 words at
# 16 * (x + 8 * (y + 6 * z)): GlobalInvocationID, LocalInvocationID,
# LocalInvocationIndex, WorkgroupID, NumWorkgroups, WorkgroupSize.
SHADER compute bi GLSL
#version 450
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(std430, set = 0, binding = 0) buffer Out { uint r[]; } o;
void main() {
  uvec3 g = gl_GlobalInvocationID;
  uvec3 total = gl_NumWorkGroups * gl_WorkGroupSize;
  uint b = 16u * (g.x + total.x * (g.y + total.y * g.z));
  o.r[b + 0u] = g.x;
  o.r[b + 1u] = g.y;
  o.r[b + 2u] = g.z;
  o.r[b + 3u] = gl_LocalInvocationID.x;
  o.r[b + 4u] = gl_LocalInvocationID.y;
  o.r[b + 5u] = gl_LocalInvocationID.z;
  o.r[b + 6u] = gl_LocalInvocationIndex;
  o.r[b + 7u] = gl_WorkGroupID.x;
  o.r[b + 8u] = gl_WorkGroupID.y;
  o.r[b + 9u] = gl_WorkGroupID.z;
  o.r[b + 10u] = gl_NumWorkGroups.x;
  o.r[b + 11u] = gl_NumWorkGroups.y;
  o.r[b + 12u] = gl_NumWorkGroups.z;
  o.r[b + 13u] = gl_WorkGroupSize.x;
  o.r[b + 14u] = gl_WorkGroupSize.y;
  o.r[b + 15u] = gl_WorkGroupSize.z;
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 1536 FILL 12345

PIPELINE compute pipe
  ATTACH bi
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 2 3 1
$(expect('out_buf', outv))
''')
