from lib import *

def E(name, text, marker=None, extra=()):
    """Error case: fill in $LINE with the 1-based line of `marker` in the file."""
    text = text.strip('\n') + '\n'
    if marker:
        ln = [k + 1 for k, l in enumerate(text.split('\n')) if marker in l]
        assert len(ln) == 1, (name, ln)
        text = text.replace('$LINE', str(ln[0]))
    case(name, text)

E('divergent_barrier_lanes.fail', '''
#!amber
# ARGS: --subgroup-size 8
# EXPECT-ERROR: divergent barrier
# EXPECT-ERROR: divergent_barrier_lanes.fail.amber:$LINE
# barrier() inside a branch taken by lanes 0..4 of the only subgroup (8 lanes):
# lanes 5..7 are masked off at the barrier.
SHADER compute divb GLSL
#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  if (i < 5u) {
    barrier();
  }
  o.v[i] = i;
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 8 FILL 0

PIPELINE compute pipe
  ATTACH divb
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
''', marker='    barrier();')

E('divergent_barrier_subgroups.fail', '''
#!amber
# ARGS: --subgroup-size 8
# EXPECT-ERROR: divergent barrier
# EXPECT-ERROR: divergent_barrier_subgroups.fail.amber:$LINE
# 16 invocations = 2 subgroups of 8. Subgroup 0 reaches the barrier with all
# its lanes active; subgroup 1 skips it and finishes: the barrier is reached
# by some subgroups but not others.
SHADER compute divsg GLSL
#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
shared uint s[16];
void main() {
  uint i = gl_LocalInvocationIndex;
  s[i] = i;
  if (i < 8u) {
    barrier();
    o.v[i] = s[15u - i];
  }
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 16 FILL 0

PIPELINE compute pipe
  ATTACH divsg
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
''', marker='    barrier();')

E('oob_storage_write.fail', '''
#!amber
# EXPECT-ERROR: out of bounds
# EXPECT-ERROR: oob_storage_write.fail.amber:$LINE
# EXPECT-ERROR: lane 7
# The buffer holds 8 uints (32 bytes); lane 7 writes element 8, i.e. bytes
# 32..35. The report must name the place, workgroup 0, lane 7, address 32 and
# the buffer size 32.
SHADER compute oobw GLSL
#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  o.v[i + 1u] = i;
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 8 FILL 0

PIPELINE compute pipe
  ATTACH oobw
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
''', marker='o.v[i + 1u] = i;')

E('oob_shared_read.fail', '''
#!amber
# EXPECT-ERROR: out of bounds
# EXPECT-ERROR: oob_shared_read.fail.amber:$LINE
# EXPECT-ERROR: lane 15
# shared uint s[16] is 64 bytes; the index is offset by a value read from a
# buffer (1), so lane 15 reads s[16] at byte address 64.
SHADER compute oobs GLSL
#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
shared uint s[16];
void main() {
  uint l = gl_LocalInvocationIndex;
  s[l] = l * 10u;
  barrier();
  uint idx = l + inb.v[0];
  o.v[l] = s[idx];
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
1
END
BUFFER out_buf DATA_TYPE uint32 SIZE 16 FILL 0

PIPELINE compute pipe
  ATTACH oobs
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
''', marker='o.v[l] = s[idx];')

E('runaway_loop.fail', '''
#!amber
# ARGS: --max-steps 10000
# EXPECT-ERROR: max-steps
# EXPECT-ERROR: runaway_loop.fail.amber:
# The loop condition reads a buffer value that never changes, so the loop
# never ends; the step limit must stop it and say where it was.
SHADER compute spin GLSL
#version 450
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer In { uint v[]; } inb;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint n = 0u;
  while (inb.v[0] != 7u) {
    n += 1u;
    o.v[i] = n;
  }
}
END

BUFFER in_buf DATA_TYPE uint32 DATA
0
END
BUFFER out_buf DATA_TYPE uint32 SIZE 4 FILL 0

PIPELINE compute pipe
  ATTACH spin
  BIND BUFFER in_buf AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 1
END

RUN pipe 1 1 1
''')

E('unsupported_image_query.fail', '''
#!amber
# EXPECT-ERROR: unsupported instruction
# EXPECT-ERROR: OpImageQuerySize
# A valid Vulkan compute module (passes spirv-val) that queries the size of a
# storage image. Images are outside lanelab's model, so the module must be
# refused before anything runs, naming the instruction.
SHADER compute imgq SPIRV-ASM TARGET_ENV vulkan1.2
               OpCapability Shader
               OpCapability ImageQuery
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %img %outb
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %img DescriptorSet 0
               OpDecorate %img Binding 1
               OpDecorate %img NonReadable
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %outb DescriptorSet 0
               OpDecorate %outb Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %v2int = OpTypeVector %int 2
      %float = OpTypeFloat 32
     %imgty = OpTypeImage %float 2D 0 0 0 2 R32f
   %ptr_img = OpTypePointer UniformConstant %imgty
        %img = OpVariable %ptr_img UniformConstant
        %rta = OpTypeRuntimeArray %int
        %Buf = OpTypeStruct %rta
 %ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
 %ptr_sb_int = OpTypePointer StorageBuffer %int
       %outb = OpVariable %ptr_sb_Buf StorageBuffer
      %int_0 = OpConstant %int 0
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %im = OpLoad %imgty %img
         %sz = OpImageQuerySize %v2int %im
         %sx = OpCompositeExtract %int %sz 0
          %p = OpAccessChain %ptr_sb_int %outb %int_0 %int_0
               OpStore %p %sx
               OpReturn
               OpFunctionEnd
END

BUFFER out_buf DATA_TYPE int32 SIZE 1 FILL 0

PIPELINE compute pipe
  ATTACH imgq
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
''')

E('invalid_spirv.fail', '''
#!amber
# EXPECT-ERROR: validation
# SPIR-V assembly that assembles but fails spirv-val: OpFAdd on integer
# operands. The module must be rejected by validation before execution.
SHADER compute bad SPIRV-ASM TARGET_ENV vulkan1.2
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %outb
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %outb DescriptorSet 0
               OpDecorate %outb Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
        %int = OpTypeInt 32 1
        %rta = OpTypeRuntimeArray %int
        %Buf = OpTypeStruct %rta
 %ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
 %ptr_sb_int = OpTypePointer StorageBuffer %int
       %outb = OpVariable %ptr_sb_Buf StorageBuffer
      %int_0 = OpConstant %int 0
      %int_2 = OpConstant %int 2
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %sum = OpFAdd %int %int_2 %int_2
          %p = OpAccessChain %ptr_sb_int %outb %int_0 %int_0
               OpStore %p %sum
               OpReturn
               OpFunctionEnd
END

BUFFER out_buf DATA_TYPE int32 SIZE 1 FILL 0

PIPELINE compute pipe
  ATTACH bad
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
''')

SIMPLE = '''SHADER compute simple GLSL
#version 450
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  o.v[gl_LocalInvocationIndex] = gl_LocalInvocationIndex + 1u;
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 4 FILL 0
'''
E('unknown_command.fail', '''
#!amber
# EXPECT-ERROR: FROBNICATE
# EXPECT-ERROR: line $LINE
# A corrupt launch file: an unknown command must be refused with its name and
# line, never skipped.
''' + SIMPLE + '''
PIPELINE compute pipe
  ATTACH simple
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

FROBNICATE pipe 1 1 1
RUN pipe 1 1 1
EXPECT out_buf IDX 0 EQ 1 2 3 4
''', marker='FROBNICATE pipe')

E('graphics_pipeline.fail', '''
#!amber
# EXPECT-ERROR: not supported
# EXPECT-ERROR: line $LINE
# Graphics pipelines are outside the compute subset: "not supported: ... at
# line N".
''' + SIMPLE + '''
PIPELINE graphics gfx
  ATTACH simple
END

PIPELINE compute pipe
  ATTACH simple
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
EXPECT out_buf IDX 0 EQ 1 2 3 4
''', marker='PIPELINE graphics gfx')

E('missing_binding.fail', '''
#!amber
# EXPECT-ERROR: binding 1
# The shader reads descriptor set 0 binding 1 but the pipeline binds only
# binding 0: the launch must be refused, naming the missing binding.
SHADER compute two GLSL
#version 450
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
layout(std430, set = 0, binding = 1) buffer In { uint v[]; } inb;
void main() {
  uint i = gl_LocalInvocationIndex;
  o.v[i] = inb.v[i] * 2u;
}
END

BUFFER out_buf DATA_TYPE uint32 SIZE 4 FILL 0

PIPELINE compute pipe
  ATTACH two
  BIND BUFFER out_buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
''')

E('expect_mismatch.fail', '''
#!amber
# EXPECT-ERROR: mismatch_out
# EXPECT-ERROR: 777
# The kernel writes 1 2 3 4 but the script expects 777 at index 2: a failed
# EXPECT must make the run fail and name the buffer and the values.
SHADER compute simple GLSL
#version 450
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  o.v[gl_LocalInvocationIndex] = gl_LocalInvocationIndex + 1u;
}
END

BUFFER mismatch_out DATA_TYPE uint32 SIZE 4 FILL 0

PIPELINE compute pipe
  ATTACH simple
  BIND BUFFER mismatch_out AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN pipe 1 1 1
EXPECT mismatch_out IDX 0 EQ 1 2 777 4
''')
