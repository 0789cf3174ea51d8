from lib import *

HDR = '''               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %inb %outb
               OpExecutionMode %main LocalSize $LS 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %inb DescriptorSet 0
               OpDecorate %inb Binding 0
               OpDecorate %outb DescriptorSet 0
               OpDecorate %outb Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
       %bool = OpTypeBool
     %v3uint = OpTypeVector %uint 3
  %ptr_in_v3 = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_in_v3 Input
        %rta = OpTypeRuntimeArray %int
        %Buf = OpTypeStruct %rta
 %ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
 %ptr_sb_int = OpTypePointer StorageBuffer %int
        %inb = OpVariable %ptr_sb_Buf StorageBuffer
       %outb = OpVariable %ptr_sb_Buf StorageBuffer
      %int_0 = OpConstant %int 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_5 = OpConstant %uint 5
      %int_1 = OpConstant %int 1'''

# ---------- asm_smod_srem ----------
pairs = [(7, 3), (-7, 3), (7, -3), (-7, -3), (6, -3), (-1, 5), (100, 7), (-100, -7)]
def tdiv(x, y):
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q
A = []
for x, y in pairs: A += [x, y]
res = []
for x, y in pairs:
    q = tdiv(x, y)
    res += [q, x - q * y, x % y, s32(u32(x) % u32(y)), s32(u32(x) // u32(y))]
C('asm_smod_srem', '''
#!amber
# SPIR-V assembly: OpSDiv truncates, OpSRem takes the sign of the dividend,
# OpSMod the sign of the divisor; OpUMod/OpUDiv on the same bits. 8 lanes,
# one (x, y) pair each, 5 results per lane.
SHADER compute divs SPIRV-ASM TARGET_ENV vulkan1.2
$(HDR.replace('$LS', '8'))
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %g3 = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g3 0
        %ix0 = OpIMul %uint %i %uint_2
        %ix1 = OpIAdd %uint %ix0 %uint_1
         %px = OpAccessChain %ptr_sb_int %inb %int_0 %ix0
         %py = OpAccessChain %ptr_sb_int %inb %int_0 %ix1
          %x = OpLoad %int %px
          %y = OpLoad %int %py
       %sdiv = OpSDiv %int %x %y
       %srem = OpSRem %int %x %y
       %smod = OpSMod %int %x %y
         %ux = OpBitcast %uint %x
         %uy = OpBitcast %uint %y
       %umod = OpUMod %uint %ux %uy
       %udiv = OpUDiv %uint %ux %uy
      %umodi = OpBitcast %int %umod
      %udivi = OpBitcast %int %udiv
         %o0 = OpIMul %uint %i %uint_5
         %o1 = OpIAdd %uint %o0 %uint_1
         %o2 = OpIAdd %uint %o0 %uint_2
         %o3 = OpIAdd %uint %o0 %uint_3
         %o4 = OpIAdd %uint %o0 %uint_4
        %po0 = OpAccessChain %ptr_sb_int %outb %int_0 %o0
        %po1 = OpAccessChain %ptr_sb_int %outb %int_0 %o1
        %po2 = OpAccessChain %ptr_sb_int %outb %int_0 %o2
        %po3 = OpAccessChain %ptr_sb_int %outb %int_0 %o3
        %po4 = OpAccessChain %ptr_sb_int %outb %int_0 %o4
               OpStore %po0 %sdiv
               OpStore %po1 %srem
               OpStore %po2 %smod
               OpStore %po3 %umodi
               OpStore %po4 %udivi
               OpReturn
               OpFunctionEnd
END

BUFFER in_buf DATA_TYPE int32 DATA
$(data(A))
END
BUFFER out_buf DATA_TYPE int32 SIZE 40 FILL 0

PIPELINE compute pipe
  ATTACH divs
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res, per_line=10))
''')

# ---------- asm_phi_loop ----------
ns = [0, 1, 2, 5, 9, 3, 12, 7]
res = []
for n in ns:
    s = 0; p = 1
    for k in range(n):
        s += k; p = u32(p * (k + 2))
    res += [s, s32(p)]
C('asm_phi_loop', '''
#!amber
# SPIR-V assembly: a structured loop (OpLoopMerge) whose counters are carried
# in OpPhi nodes; the trip count n comes from the input, so lanes leave the
# loop at different iterations. Each lane writes sum(0..n-1) and
# prod(2..n+1) (wrapping).
SHADER compute phis SPIRV-ASM
$(HDR.replace('$LS', '8'))
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %g3 = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g3 0
         %pn = OpAccessChain %ptr_sb_int %inb %int_0 %i
         %ni = OpLoad %int %pn
          %n = OpBitcast %uint %ni
               OpBranch %header
     %header = OpLabel
          %k = OpPhi %uint %uint_0 %entry %knext %cont
          %s = OpPhi %uint %uint_0 %entry %snext %cont
          %p = OpPhi %uint %uint_1 %entry %pnext %cont
               OpLoopMerge %merge %cont None
               OpBranch %check
      %check = OpLabel
       %more = OpULessThan %bool %k %n
               OpBranchConditional %more %body %merge
       %body = OpLabel
      %snext = OpIAdd %uint %s %k
         %k2 = OpIAdd %uint %k %uint_2
      %pnext = OpIMul %uint %p %k2
               OpBranch %cont
       %cont = OpLabel
      %knext = OpIAdd %uint %k %uint_1
               OpBranch %header
      %merge = OpLabel
         %o0 = OpIMul %uint %i %uint_2
         %o1 = OpIAdd %uint %o0 %uint_1
        %po0 = OpAccessChain %ptr_sb_int %outb %int_0 %o0
        %po1 = OpAccessChain %ptr_sb_int %outb %int_0 %o1
        %si = OpBitcast %int %s
        %pi = OpBitcast %int %p
               OpStore %po0 %si
               OpStore %po1 %pi
               OpReturn
               OpFunctionEnd
END

BUFFER in_buf DATA_TYPE int32 DATA
$(data(ns))
END
BUFFER out_buf DATA_TYPE int32 SIZE 16 FILL 0

PIPELINE compute pipe
  ATTACH phis
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')

# ---------- asm_composite_select ----------
# lane i: v = (i, i+1, i+2, i+3); w = shuffle(v, v, 3,2,5,0) -> (i+3, i+2, i+1... ) with second vector = v*10
res = []
for i in range(4):
    v = [i, i + 1, i + 2, i + 3]; v10 = [x * 10 for x in v]
    cat = v + v10
    w = [cat[3], cat[2], cat[5], cat[0]]
    w2 = list(w); w2[1] = 77
    cond = [x % 2 == 0 for x in w2]
    sel = [a if c else b for a, b, c in zip(w2, v10, cond)]
    fb = fbits(float(i) + 0.5)
    res += sel + [s32(fb), s32(u32(-i))]
C('asm_composite_select', '''
#!amber
# SPIR-V assembly: OpVectorShuffle across two vectors, OpCompositeInsert /
# Extract, OpSelect with a bool-vector condition, OpConvertUToF + OpBitcast
# of a float, OpSNegate. 4 lanes, 6 words each.
SHADER compute comp SPIRV-ASM
$(HDR.replace('$LS', '4'))
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
    %uint_10 = OpConstant %uint 10
    %uint_77 = OpConstant %uint 77
      %float = OpTypeFloat 32
  %float_0_5 = OpConstant %float 0.5
     %v4uint = OpTypeVector %uint 4
     %v4bool = OpTypeVector %bool 4
      %v4one = OpConstantComposite %v4uint %uint_1 %uint_1 %uint_1 %uint_1
     %v4zero = OpConstantComposite %v4uint %uint_0 %uint_0 %uint_0 %uint_0
      %v4ten = OpConstantComposite %v4uint %uint_10 %uint_10 %uint_10 %uint_10
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %g3 = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g3 0
         %i1 = OpIAdd %uint %i %uint_1
         %i2 = OpIAdd %uint %i %uint_2
         %i3 = OpIAdd %uint %i %uint_3
          %v = OpCompositeConstruct %v4uint %i %i1 %i2 %i3
        %v10 = OpIMul %v4uint %v %v4ten
          %w = OpVectorShuffle %v4uint %v %v10 3 2 5 0
         %w2 = OpCompositeInsert %v4uint %uint_77 %w 1
        %lsb = OpBitwiseAnd %v4uint %w2 %v4one
       %even = OpIEqual %v4bool %lsb %v4zero
        %sel = OpSelect %v4uint %even %w2 %v10
         %fi = OpConvertUToF %float %i
         %fh = OpFAdd %float %fi %float_0_5
         %fb = OpBitcast %int %fh
         %ii = OpBitcast %int %i
        %neg = OpSNegate %int %ii
         %s0 = OpCompositeExtract %uint %sel 0
         %s1 = OpCompositeExtract %uint %sel 1
         %s2 = OpCompositeExtract %uint %sel 2
         %s3 = OpCompositeExtract %uint %sel 3
        %s0i = OpBitcast %int %s0
        %s1i = OpBitcast %int %s1
        %s2i = OpBitcast %int %s2
        %s3i = OpBitcast %int %s3
         %b0 = OpIMul %uint %i %uint_4
         %b0x = OpIAdd %uint %b0 %i
         %b1 = OpIAdd %uint %b0x %i
         %o0 = OpIAdd %uint %b1 %uint_0
         %o1 = OpIAdd %uint %b1 %uint_1
         %o2 = OpIAdd %uint %b1 %uint_2
         %o3 = OpIAdd %uint %b1 %uint_3
         %o4 = OpIAdd %uint %b1 %uint_4
         %o5 = OpIAdd %uint %b1 %uint_5
        %p0 = OpAccessChain %ptr_sb_int %outb %int_0 %o0
        %p1 = OpAccessChain %ptr_sb_int %outb %int_0 %o1
        %p2 = OpAccessChain %ptr_sb_int %outb %int_0 %o2
        %p3 = OpAccessChain %ptr_sb_int %outb %int_0 %o3
        %p4 = OpAccessChain %ptr_sb_int %outb %int_0 %o4
        %p5 = OpAccessChain %ptr_sb_int %outb %int_0 %o5
               OpStore %p0 %s0i
               OpStore %p1 %s1i
               OpStore %p2 %s2i
               OpStore %p3 %s3i
               OpStore %p4 %fb
               OpStore %p5 %neg
               OpReturn
               OpFunctionEnd
END

BUFFER in_buf DATA_TYPE int32 SIZE 4 FILL 0
BUFFER out_buf DATA_TYPE int32 SIZE 24 FILL 0

PIPELINE compute pipe
  ATTACH comp
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res, per_line=6))
''')

# ---------- asm_subgroup_w4 ----------
W = 4
xs = [3, 9, 4, 1, 8, 8, 2, 5, 6, 7, 1, 0, 2, 2, 2, 2]
res = []
for i in range(16):
    lane = i % W; base = i - lane; idx = range(base, base + W)
    inc = sum(xs[j] for j in range(base, i + 1))
    odd = [j for j in idx if (j % W) % 2 == 1]
    r = [int(lane == 0), sum(xs[j] for j in idx), inc, xs[base],
         xs[odd[0]] if i in odd else 99]
    res += r + [0, 0, 0]
SG = HDR.replace('OpCapability Shader', 'OpCapability Shader\n               OpCapability GroupNonUniform\n               OpCapability GroupNonUniformArithmetic\n               OpCapability GroupNonUniformBallot') \
        .replace('%gid %inb %outb', '%gid %inb %outb %lid').replace('OpDecorate %gid BuiltIn GlobalInvocationId', 'OpDecorate %gid BuiltIn GlobalInvocationId\n               OpDecorate %lid BuiltIn SubgroupLocalInvocationId') \
        .replace('%gid = OpVariable %ptr_in_v3 Input', '%gid = OpVariable %ptr_in_v3 Input\n %ptr_in_uint = OpTypePointer Input %uint\n        %lid = OpVariable %ptr_in_uint Input')
C('asm_subgroup_w4', '''
#!amber
# ARGS: --subgroup-size 4
# SPIR-V assembly group operations at subgroup scope: OpGroupNonUniformElect,
# OpGroupNonUniformIAdd Reduce and InclusiveScan,
# OpGroupNonUniformBroadcastFirst (uniform and inside an odd-lanes branch,
# where the first active lane is 1). 16 lanes, subgroups of 4, 8 words each.
SHADER compute sgasm SPIRV-ASM TARGET_ENV vulkan1.2
$(SG.replace('$LS', '16'))
     %uint_3 = OpConstant %uint 3
     %uint_8 = OpConstant %uint 8
    %uint_99 = OpConstant %uint 99
     %int_99 = OpConstant %int 99
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %g3 = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g3 0
       %lane = OpLoad %uint %lid
         %px = OpAccessChain %ptr_sb_int %inb %int_0 %i
          %x = OpLoad %int %px
         %el = OpGroupNonUniformElect %bool %uint_3
        %eli = OpSelect %int %el %int_1 %int_0
        %red = OpGroupNonUniformIAdd %int %uint_3 Reduce %x
        %inc = OpGroupNonUniformIAdd %int %uint_3 InclusiveScan %x
        %bf = OpGroupNonUniformBroadcastFirst %int %uint_3 %x
         %b = OpIMul %uint %i %uint_8
         %o1 = OpIAdd %uint %b %uint_1
         %o2 = OpIAdd %uint %b %uint_2
         %o3 = OpIAdd %uint %b %uint_3
         %o4 = OpIAdd %uint %o3 %uint_1
        %p0 = OpAccessChain %ptr_sb_int %outb %int_0 %b
        %p1 = OpAccessChain %ptr_sb_int %outb %int_0 %o1
        %p2 = OpAccessChain %ptr_sb_int %outb %int_0 %o2
        %p3 = OpAccessChain %ptr_sb_int %outb %int_0 %o3
        %p4 = OpAccessChain %ptr_sb_int %outb %int_0 %o4
               OpStore %p0 %eli
               OpStore %p1 %red
               OpStore %p2 %inc
               OpStore %p3 %bf
               OpStore %p4 %int_99
        %bit = OpBitwiseAnd %uint %lane %uint_1
        %odd = OpIEqual %bool %bit %uint_1
               OpSelectionMerge %join None
               OpBranchConditional %odd %then %join
       %then = OpLabel
       %bf2 = OpGroupNonUniformBroadcastFirst %int %uint_3 %x
               OpStore %p4 %bf2
               OpBranch %join
       %join = OpLabel
               OpReturn
               OpFunctionEnd
END

BUFFER in_buf DATA_TYPE int32 DATA
$(data(xs))
END
BUFFER out_buf DATA_TYPE int32 SIZE 128 FILL 0

PIPELINE compute pipe
  ATTACH sgasm
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
$(expect('out_buf', res))
''')
