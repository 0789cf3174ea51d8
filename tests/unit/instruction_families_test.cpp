// One test per instruction family: each kernel reads its operands from a
// buffer (so the optimizer cannot fold the instructions away) and the results
// are checked against values computed here by hand or by plain C++.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <vector>

#include "tests/unit/test_kernel.h"

namespace lanelab::unit {
namespace {

constexpr uint32_t kWidth = 32;

TEST(InstructionFamilies, IntegerArithmeticWrapsModulo2To32) {
  const std::vector<int32_t> pairs = {2147483647, 1,  -2147483647 - 1, 1, 7,  3,  -7, 3,
                                      100000,     100000, -1,          2, 65536, 65536, 0, 1};
  const char* glsl = R"(#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { ivec2 v[]; } operands;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  int a = operands.v[i].x, b = operands.v[i].y;
  uint ua = uint(a), ub = uint(b);
  o.v[i * 8u + 0u] = uint(a + b);
  o.v[i * 8u + 1u] = uint(a - b);
  o.v[i * 8u + 2u] = uint(a * b);
  o.v[i * 8u + 3u] = uint(a / b);
  o.v[i * 8u + 4u] = uint(-a);
  o.v[i * 8u + 5u] = ua / ub;
  o.v[i * 8u + 6u] = ua % ub;
  o.v[i * 8u + 7u] = ua - ub - 1u;
})";
  auto out = run_glsl(glsl, kWidth, {buffer_of(pairs), words_buffer(64)}).uints(1);
  for (uint32_t i = 0; i < 8; ++i) {
    const int32_t a = pairs[2 * i], b = pairs[2 * i + 1];
    const uint32_t ua = uint32_t(a), ub = uint32_t(b);
    SCOPED_TRACE("a=" + std::to_string(a) + " b=" + std::to_string(b));
    EXPECT_EQ(out[i * 8 + 0], ua + ub);
    EXPECT_EQ(out[i * 8 + 1], ua - ub);
    EXPECT_EQ(out[i * 8 + 2], ua * ub);
    EXPECT_EQ(out[i * 8 + 3], uint32_t(a / b));
    EXPECT_EQ(out[i * 8 + 4], 0u - ua);
    EXPECT_EQ(out[i * 8 + 5], ua / ub);
    EXPECT_EQ(out[i * 8 + 6], ua % ub);
    EXPECT_EQ(out[i * 8 + 7], ua - ub - 1u);
  }
  // The wrapping cases, by hand.
  EXPECT_EQ(out[0 * 8 + 0], 0x80000000u);  // INT_MAX + 1
  EXPECT_EQ(out[1 * 8 + 1], 0x7FFFFFFFu);  // INT_MIN - 1
  EXPECT_EQ(out[1 * 8 + 4], 0x80000000u);  // -INT_MIN
  EXPECT_EQ(out[6 * 8 + 2], 0u);           // 65536 * 65536
  EXPECT_EQ(out[3 * 8 + 3], uint32_t(-2)); // -7 / 3 truncates
  EXPECT_EQ(out[5 * 8 + 5], 0x7FFFFFFFu);  // 0xFFFFFFFF / 2 unsigned
}

// OpSDiv truncates, OpSRem takes the dividend's sign, OpSMod the divisor's.
TEST(InstructionFamilies, SignedDivisionRemainderAndModuloSigns) {
  const char* assembly = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %inb %outb
               OpExecutionMode %main LocalSize 8 1 1
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
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
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
         %o0 = OpIMul %uint %i %uint_3
         %o1 = OpIAdd %uint %o0 %uint_1
         %o2 = OpIAdd %uint %o0 %uint_2
        %po0 = OpAccessChain %ptr_sb_int %outb %int_0 %o0
        %po1 = OpAccessChain %ptr_sb_int %outb %int_0 %o1
        %po2 = OpAccessChain %ptr_sb_int %outb %int_0 %o2
               OpStore %po0 %sdiv
               OpStore %po1 %srem
               OpStore %po2 %smod
               OpReturn
               OpFunctionEnd)";
  Kernel kernel;
  kernel.source = assembly;
  kernel.format = launch::ShaderFormat::SpirvAsm;
  kernel.target_env = "vulkan1.2";
  kernel.buffers = {buffer_of(std::vector<int32_t>{7, 3, -7, 3, 7, -3, -7, -3, 6, -3, -1, 5, 100, 7, -100, -7}),
                    words_buffer(24)};
  auto out = run_kernel(kernel).ints(1);
  const std::vector<int32_t> expected = {
      2,  1,  1,    // 7, 3
      -2, -1, 2,    // -7, 3
      -2, 1,  -2,   // 7, -3
      2,  -1, -1,   // -7, -3
      -2, 0,  0,    // 6, -3
      0,  -1, 4,    // -1, 5
      14, 2,  2,    // 100, 7
      14, -2, -2};  // -100, -7
  EXPECT_EQ(out, expected);
}

TEST(InstructionFamilies, ShiftsLogicalAndArithmetic) {
  std::vector<uint32_t> values, amounts;
  for (uint32_t i = 0; i < 32; ++i) {
    values.push_back(i % 2 ? 0x80000001u * (i | 1) : 0x12345678u ^ (i * 0x01010101u));
    amounts.push_back(i);
  }
  const char* glsl = R"(#version 450
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer V { uint v[]; } values;
layout(std430, set = 0, binding = 1) readonly buffer A { uint v[]; } amounts;
layout(std430, set = 0, binding = 2) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint x = values.v[i], n = amounts.v[i];
  o.v[i * 3u + 0u] = x << n;
  o.v[i * 3u + 1u] = x >> n;
  o.v[i * 3u + 2u] = uint(int(x) >> int(n));
})";
  auto out = run_glsl(glsl, kWidth, {buffer_of(values), buffer_of(amounts), words_buffer(96)}).uints(2);
  for (uint32_t i = 0; i < 32; ++i) {
    const uint32_t x = values[i], n = amounts[i];
    SCOPED_TRACE("x=" + std::to_string(x) + " n=" + std::to_string(n));
    EXPECT_EQ(out[i * 3 + 0], x << n);
    EXPECT_EQ(out[i * 3 + 1], x >> n);
    EXPECT_EQ(out[i * 3 + 2], uint32_t(int32_t(x) >> n));
  }
  EXPECT_EQ(out[31 * 3 + 2], 0xFFFFFFFFu);  // a negative value shifted right by 31 keeps only its sign
}

int32_t find_msb_signed(int32_t v) {
  uint32_t bits = uint32_t(v < 0 ? ~v : v);
  return bits == 0 ? -1 : 31 - std::countl_zero(bits);
}

TEST(InstructionFamilies, BitfieldOperationsAndBitCounts) {
  struct Case { uint32_t value, insert, offset, count; };
  const std::vector<Case> cases = {{0xF0F0F0F0u, 0x5u, 4, 4},   {0x80000000u, 0xFFu, 0, 8},
                                   {0x12345678u, 0x1u, 31, 1},  {0xFFFFFFFFu, 0x0u, 8, 16},
                                   {0x00000000u, 0xABCDu, 16, 16}, {0x7FFFFFFFu, 0x3u, 0, 32},
                                   {0xDEADBEEFu, 0x7u, 5, 0},   {0x00010000u, 0x2u, 15, 3}};
  const char* glsl = R"(#version 450
layout(local_size_x = 8) in;
struct Case { uint value; uint insert; uint offset; uint count; };
layout(std430, set = 0, binding = 0) readonly buffer In { Case c[]; } cases;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  Case c = cases.c[i];
  int offset = int(c.offset), count = int(c.count);
  uint b = i * 9u;
  o.v[b + 0u] = bitfieldExtract(c.value, offset, count);
  o.v[b + 1u] = uint(bitfieldExtract(int(c.value), offset, count));
  o.v[b + 2u] = bitfieldInsert(c.value, c.insert, offset, count);
  o.v[b + 3u] = uint(bitCount(c.value));
  o.v[b + 4u] = uint(findMSB(c.value));
  o.v[b + 5u] = uint(findMSB(int(c.value)));
  o.v[b + 6u] = uint(findLSB(c.value));
  o.v[b + 7u] = bitfieldReverse(c.value);
  o.v[b + 8u] = ~c.value & (c.insert | 0x100u) ^ c.offset;
})";
  auto out = run_glsl(glsl, kWidth, {buffer_of(cases), words_buffer(72)}).uints(1);
  for (uint32_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    SCOPED_TRACE("case " + std::to_string(i));
    const uint32_t field_mask = c.count == 32 ? 0xFFFFFFFFu : (1u << c.count) - 1;
    const uint32_t field = (c.value >> c.offset) & field_mask;
    const uint32_t sign_extended =
        c.count == 0 ? 0u : (field & (1u << (c.count - 1))) ? field | ~field_mask : field;
    const uint32_t insert_mask = field_mask << c.offset;
    uint32_t reversed = 0;
    for (uint32_t bit = 0; bit < 32; ++bit) reversed |= ((c.value >> bit) & 1u) << (31 - bit);
    EXPECT_EQ(out[i * 9 + 0], field);
    EXPECT_EQ(out[i * 9 + 1], sign_extended);
    EXPECT_EQ(out[i * 9 + 2], (c.value & ~insert_mask) | ((c.insert << c.offset) & insert_mask));
    EXPECT_EQ(out[i * 9 + 3], uint32_t(std::popcount(c.value)));
    EXPECT_EQ(out[i * 9 + 4], c.value == 0 ? 0xFFFFFFFFu : 31u - std::countl_zero(c.value));
    EXPECT_EQ(out[i * 9 + 5], uint32_t(find_msb_signed(int32_t(c.value))));
    EXPECT_EQ(out[i * 9 + 6], c.value == 0 ? 0xFFFFFFFFu : uint32_t(std::countr_zero(c.value)));
    EXPECT_EQ(out[i * 9 + 7], reversed);
    EXPECT_EQ(out[i * 9 + 8], (~c.value & (c.insert | 0x100u)) ^ c.offset);
  }
  // A few by hand.
  EXPECT_EQ(out[0 * 9 + 0], 0xFu);         // bits 4..7 of 0xF0F0F0F0
  EXPECT_EQ(out[0 * 9 + 1], 0xFFFFFFFFu);  // ... sign-extended from 4 bits
  EXPECT_EQ(out[1 * 9 + 5], 30u);          // findMSB(INT_MIN): the highest 0 bit
  EXPECT_EQ(out[1 * 9 + 7], 1u);           // bitfieldReverse(0x80000000)
  EXPECT_EQ(out[4 * 9 + 2], 0xABCD0000u);
  EXPECT_EQ(out[4 * 9 + 4], 0xFFFFFFFFu);  // findMSB(0u) = -1
}

TEST(InstructionFamilies, ComparisonsAndSelect) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  struct Case { int32_t a, b; float x, y; };
  const std::vector<Case> cases = {{1, 2, 1.0f, 2.0f},    {-1, 1, -0.0f, 0.0f}, {5, 5, nan, 1.0f},
                                   {2147483647, -2147483647 - 1, 3.0f, -3.0f}, {-3, -3, nan, nan},
                                   {0, -1, 1.5f, 1.5f},   {7, 3, -1e30f, 1e30f}, {-8, 8, 2.0f, nan}};
  const char* glsl = R"(#version 450
layout(local_size_x = 8) in;
struct Case { int a; int b; float x; float y; };
layout(std430, set = 0, binding = 0) readonly buffer In { Case c[]; } cases;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  Case c = cases.c[i];
  uint ua = uint(c.a), ub = uint(c.b);
  uint ints = uint(c.a < c.b) | uint(c.a <= c.b) << 1 | uint(c.a > c.b) << 2 | uint(c.a >= c.b) << 3 |
              uint(c.a == c.b) << 4 | uint(c.a != c.b) << 5 | uint(ua < ub) << 6 | uint(ua >= ub) << 7;
  uint floats = uint(c.x < c.y) | uint(c.x <= c.y) << 1 | uint(c.x > c.y) << 2 | uint(c.x >= c.y) << 3 |
                uint(c.x == c.y) << 4 | uint(c.x != c.y) << 5 | uint(isnan(c.x)) << 6 | uint(isinf(c.y)) << 7;
  o.v[i * 5u + 0u] = ints;
  o.v[i * 5u + 1u] = floats;
  o.v[i * 5u + 2u] = uint(c.a < c.b ? c.b : c.a);
  bvec2 pick = bvec2(c.a < c.b, ua < ub);
  uvec2 chosen = mix(uvec2(10u, 20u) + ua, uvec2(30u, 40u), pick);
  o.v[i * 5u + 3u] = chosen.x;
  o.v[i * 5u + 4u] = chosen.y;
})";
  auto out = run_glsl(glsl, kWidth, {buffer_of(cases), words_buffer(40)}).uints(1);
  for (uint32_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    SCOPED_TRACE("case " + std::to_string(i));
    const uint32_t ua = uint32_t(c.a), ub = uint32_t(c.b);
    const uint32_t ints = uint32_t(c.a < c.b) | uint32_t(c.a <= c.b) << 1 | uint32_t(c.a > c.b) << 2 |
                          uint32_t(c.a >= c.b) << 3 | uint32_t(c.a == c.b) << 4 | uint32_t(c.a != c.b) << 5 |
                          uint32_t(ua < ub) << 6 | uint32_t(ua >= ub) << 7;
    // Ordered comparisons are false with a NaN; != is true (unordered).
    const uint32_t floats = uint32_t(c.x < c.y) | uint32_t(c.x <= c.y) << 1 | uint32_t(c.x > c.y) << 2 |
                            uint32_t(c.x >= c.y) << 3 | uint32_t(c.x == c.y) << 4 | uint32_t(c.x != c.y) << 5 |
                            uint32_t(std::isnan(c.x)) << 6 | uint32_t(std::isinf(c.y)) << 7;
    EXPECT_EQ(out[i * 5 + 0], ints);
    EXPECT_EQ(out[i * 5 + 1], floats);
    EXPECT_EQ(out[i * 5 + 2], uint32_t(c.a < c.b ? c.b : c.a));
    EXPECT_EQ(out[i * 5 + 3], c.a < c.b ? 30u : 10u + ua);
    EXPECT_EQ(out[i * 5 + 4], ua < ub ? 40u : 20u + ua);
  }
  EXPECT_EQ(out[4 * 5 + 1], 0b100000u | 0b1000000u);  // NaN vs NaN: only != and isnan
  EXPECT_EQ(out[1 * 5 + 1] & 0b11010u, 0b11010u);       // -0.0 == 0.0, <=, >=
}

TEST(InstructionFamilies, ConversionsAndBitcasts) {
  struct Case { float f; int32_t s; uint32_t u; uint32_t pad; };
  const std::vector<Case> cases = {{2.7f, -5, 4294967295u, 0},   {-2.7f, 16777217, 0x80000000u, 0},
                                   {3.0e9f, -1, 1u, 0},          {-0.0f, 2147483647, 0u, 0}};
  const char* glsl = R"(#version 450
layout(local_size_x = 4) in;
struct Case { float f; int s; uint u; uint pad; };
layout(std430, set = 0, binding = 0) readonly buffer In { Case c[]; } cases;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  Case c = cases.c[i];
  uint b = i * 8u;
  o.v[b + 0u] = uint(int(c.f));
  o.v[b + 1u] = c.f > 0.0 ? uint(c.f) : 0u;
  o.v[b + 2u] = floatBitsToUint(float(c.s));
  o.v[b + 3u] = floatBitsToUint(float(c.u));
  o.v[b + 4u] = floatBitsToUint(c.f);
  o.v[b + 5u] = floatBitsToUint(intBitsToFloat(c.s) * 1.0);
  o.v[b + 6u] = uint(int(c.u));
  o.v[b + 7u] = uint(bool(c.u)) + 2u * uint(bool(c.f));
})";
  auto out = run_glsl(glsl, kWidth, {buffer_of(cases), words_buffer(32)}).uints(1);
  for (uint32_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    SCOPED_TRACE("case " + std::to_string(i));
    const float reinterpreted = std::bit_cast<float>(c.s);
    if (std::fabs(c.f) < 2147483648.0f) {  // out of int range the conversion is undefined
      EXPECT_EQ(out[i * 8 + 0], uint32_t(int32_t(c.f)));
    }
    EXPECT_EQ(out[i * 8 + 1], c.f > 0.0f ? uint32_t(c.f) : 0u);
    EXPECT_EQ(out[i * 8 + 2], std::bit_cast<uint32_t>(float(c.s)));
    EXPECT_EQ(out[i * 8 + 3], std::bit_cast<uint32_t>(float(c.u)));
    EXPECT_EQ(out[i * 8 + 4], std::bit_cast<uint32_t>(c.f));
    if (!std::isnan(reinterpreted)) {
      EXPECT_EQ(out[i * 8 + 5], std::bit_cast<uint32_t>(reinterpreted * 1.0f));
    }
    EXPECT_EQ(out[i * 8 + 6], c.u);
    EXPECT_EQ(out[i * 8 + 7], uint32_t(c.u != 0) + 2u * uint32_t(c.f != 0.0f));
  }
  EXPECT_EQ(out[0 * 8 + 0], 2u);                        // 2.7 truncates to 2
  EXPECT_EQ(out[1 * 8 + 0], uint32_t(-2));              // -2.7 truncates to -2
  EXPECT_EQ(out[2 * 8 + 1], 3000000000u);               // 3e9 fits a uint
  EXPECT_EQ(out[1 * 8 + 2], 0x4B800000u);               // 16777217 rounds to 16777216.0
  EXPECT_EQ(out[0 * 8 + 3], 0x4F800000u);               // 4294967295u rounds to 2^32
  EXPECT_EQ(out[3 * 8 + 4], 0x80000000u);               // -0.0 keeps its sign bit
}

bool near(float actual, double expected) {
  return std::fabs(actual - expected) <= 2e-6 * std::max(1.0, std::fabs(expected));
}

TEST(InstructionFamilies, FloatArithmeticAndGlslStd450) {
  const std::vector<float> xy = {1.5f, 2.0f, -2.25f, 0.5f, 7.0f, -3.0f, 0.1f, 10.0f,
                                 -0.75f, -1.25f, 3.0f, 3.0f, 100.0f, 0.25f, -5.5f, 2.5f};
  const char* glsl = R"(#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec2 v[]; } operands;
layout(std430, set = 0, binding = 1) buffer Out { float v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  float x = operands.v[i].x, y = operands.v[i].y;
  uint b = i * 32u;
  o.v[b + 0u] = x + y;
  o.v[b + 1u] = x - y;
  o.v[b + 2u] = x * y;
  o.v[b + 3u] = x / y;
  o.v[b + 4u] = sqrt(abs(x));
  o.v[b + 5u] = inversesqrt(abs(y));
  o.v[b + 6u] = sign(x);
  o.v[b + 7u] = floor(x);
  o.v[b + 8u] = ceil(x);
  o.v[b + 9u] = fract(x);
  o.v[b + 10u] = mod(x, y);
  o.v[b + 11u] = min(x, y);
  o.v[b + 12u] = max(x, y);
  o.v[b + 13u] = clamp(x, -1.0, 1.0);
  o.v[b + 14u] = mix(x, y, 0.25);
  o.v[b + 15u] = fma(x, y, 1.0);
  o.v[b + 16u] = pow(abs(x), 1.5);
  o.v[b + 17u] = exp2(y);
  o.v[b + 18u] = log2(abs(x));
  o.v[b + 19u] = sin(x);
  o.v[b + 20u] = cos(x);
  o.v[b + 21u] = atan(y, x);
  o.v[b + 22u] = step(0.0, x);
  o.v[b + 23u] = smoothstep(-1.0, 1.0, x);
  o.v[b + 24u] = roundEven(x * 2.0);
  o.v[b + 25u] = trunc(x);
  o.v[b + 26u] = exp(y * 0.5);
  o.v[b + 27u] = length(vec3(x, y, 1.0));
  o.v[b + 28u] = dot(vec3(x, y, 1.0), vec3(y, 2.0, x));
  o.v[b + 29u] = cross(vec3(x, y, 1.0), vec3(y, 2.0, x)).z;
  o.v[b + 30u] = normalize(vec2(x, y)).y;
  o.v[b + 31u] = distance(vec2(x, y), vec2(1.0, -1.0));
})";
  auto out = run_glsl(glsl, kWidth, {buffer_of(xy), words_buffer(8 * 32)}).floats(1);
  for (uint32_t i = 0; i < 8; ++i) {
    const float x = xy[2 * i], y = xy[2 * i + 1];
    SCOPED_TRACE("x=" + std::to_string(x) + " y=" + std::to_string(y));
    const float* r = &out[i * 32];
    // IEEE operations are exact: the same float arithmetic here.
    EXPECT_EQ(r[0], x + y);
    EXPECT_EQ(r[1], x - y);
    EXPECT_EQ(r[2], x * y);
    EXPECT_EQ(r[3], x / y);
    EXPECT_EQ(r[4], std::sqrt(std::fabs(x)));
    EXPECT_TRUE(near(r[5], 1.0 / std::sqrt(std::fabs(double(y)))));
    EXPECT_EQ(r[6], x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f);
    EXPECT_EQ(r[7], std::floor(x));
    EXPECT_EQ(r[8], std::ceil(x));
    EXPECT_EQ(r[9], x - std::floor(x));
    EXPECT_TRUE(near(r[10], double(x) - double(y) * std::floor(double(x) / double(y)))) << r[10];
    EXPECT_EQ(r[11], std::min(x, y));
    EXPECT_EQ(r[12], std::max(x, y));
    EXPECT_EQ(r[13], std::clamp(x, -1.0f, 1.0f));
    EXPECT_TRUE(near(r[14], x * 0.75 + y * 0.25));
    EXPECT_TRUE(near(r[15], double(x) * double(y) + 1.0));
    EXPECT_TRUE(near(r[16], std::pow(std::fabs(double(x)), 1.5)));
    EXPECT_TRUE(near(r[17], std::exp2(double(y))));
    EXPECT_TRUE(near(r[18], std::log2(std::fabs(double(x)))));
    EXPECT_TRUE(near(r[19], std::sin(double(x))));
    EXPECT_TRUE(near(r[20], std::cos(double(x))));
    EXPECT_TRUE(near(r[21], std::atan2(double(y), double(x))));
    EXPECT_EQ(r[22], x < 0.0f ? 0.0f : 1.0f);
    const double t = std::clamp((double(x) + 1.0) / 2.0, 0.0, 1.0);
    EXPECT_TRUE(near(r[23], t * t * (3.0 - 2.0 * t)));
    EXPECT_EQ(r[24], std::nearbyint(x * 2.0f));  // default rounding: to nearest even
    EXPECT_EQ(r[25], std::trunc(x));
    EXPECT_TRUE(near(r[26], std::exp(double(y) * 0.5)));
    EXPECT_TRUE(near(r[27], std::sqrt(double(x) * x + double(y) * y + 1.0)));
    EXPECT_TRUE(near(r[28], double(x) * y + 2.0 * y + x));
    EXPECT_TRUE(near(r[29], double(x) * 2.0 - double(y) * y));
    EXPECT_TRUE(near(r[30], y / std::sqrt(double(x) * x + double(y) * y)));
    EXPECT_TRUE(near(r[31], std::hypot(double(x) - 1.0, double(y) + 1.0)));
  }
  EXPECT_EQ(out[1 * 32 + 10], 0.25f);   // mod(-2.25, 0.5) takes the divisor's sign
  EXPECT_EQ(out[2 * 32 + 10], -2.0f);   // mod(7, -3)
  EXPECT_EQ(out[1 * 32 + 9], 0.75f);    // fract(-2.25)
  EXPECT_EQ(out[5 * 32 + 24], 6.0f);    // roundEven(6.0)
  EXPECT_EQ(out[0 * 32 + 24], 3.0f);    // roundEven(3.0)
  EXPECT_EQ(out[7 * 32 + 24], -11.0f);  // roundEven(-11.0)
}

TEST(InstructionFamilies, VectorsCompositesAndSwizzles) {
  const std::vector<float> vectors = {1, 2, 3, 4, -1, -2, -3, -4, 10, 20, 30, 40, 0.5f, 0.25f, 0.125f, 8};
  const char* glsl = R"(#version 450
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec4 v[]; } vectors;
layout(std430, set = 0, binding = 1) buffer Out { vec4 v[]; } o;
struct Pair { vec2 a; float b[3]; };
void main() {
  uint i = gl_LocalInvocationIndex;
  vec4 v = vectors.v[i];
  o.v[i * 6u + 0u] = v.wzyx;
  o.v[i * 6u + 1u] = vec4(v.xxy + v.zzw, v[i]);
  vec4 w = v;
  w.y = 7.0;
  w[i] = -w[i];
  o.v[i * 6u + 2u] = w;
  float local[4] = float[4](v.x, v.y, v.z, v.w);
  local[(i + 1u) % 4u] = 100.0;
  o.v[i * 6u + 3u] = vec4(local[0], local[1], local[2], local[3]);
  Pair p = Pair(v.zw, float[3](v.x * 2.0, v.y, v.z));
  p.b[i % 3u] += 1.0;
  o.v[i * 6u + 4u] = vec4(p.a, p.b[0], p.b[2]);
  o.v[i * 6u + 5u] = vec4(v.xy * 2.0, v.zw + vec2(1.0));
})";
  auto out = run_glsl(glsl, kWidth, {buffer_of(vectors), words_buffer(4 * 6 * 4)}).floats(1);
  for (uint32_t i = 0; i < 4; ++i) {
    const float* v = &vectors[i * 4];
    const float* r = &out[i * 24];
    SCOPED_TRACE("vector " + std::to_string(i));
    std::vector<float> w(v, v + 4), local(v, v + 4);
    w[1] = 7.0f;
    w[i] = -w[i];
    local[(i + 1) % 4] = 100.0f;
    float b[3] = {v[0] * 2.0f, v[1], v[2]};
    b[i % 3] += 1.0f;
    const std::vector<std::vector<float>> expected = {
        {v[3], v[2], v[1], v[0]},
        {v[0] + v[2], v[0] + v[2], v[1] + v[3], v[i]},
        w,
        local,
        {v[2], v[3], b[0], b[2]},
        {v[0] * 2, v[1] * 2, v[2] + 1, v[3] + 1}};
    for (uint32_t k = 0; k < 6; ++k) EXPECT_EQ(std::vector<float>(r + 4 * k, r + 4 * k + 4), expected[k]) << "output " << k;
  }
}

TEST(InstructionFamilies, MatrixProductsAndTranspose) {
  // Column-major 3x3 matrices A and B, then a vector v, loaded as vec4s
  // (xyz used) and built into matrices in the kernel.
  const std::vector<float> input = {1, 2, 3, 4, 5, 6, 7, 8, 10,       // A columns
                                    2, 0, 1, -1, 3, 0, 0.5f, 0, 4,    // B columns
                                    1, -2, 3};                          // v
  const char* glsl = R"(#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec4 column[7]; } m;
layout(std430, set = 0, binding = 1) buffer Out { float v[]; } o;
void put(uint at, mat3 x) { for (int c = 0; c < 3; ++c) for (int r = 0; r < 3; ++r) o.v[at + uint(c * 3 + r)] = x[c][r]; }
void put(uint at, vec3 x) { for (int r = 0; r < 3; ++r) o.v[at + uint(r)] = x[r]; }
void main() {
  mat3 a = mat3(m.column[0].xyz, m.column[1].xyz, m.column[2].xyz);
  mat3 b = mat3(m.column[3].xyz, m.column[4].xyz, m.column[5].xyz);
  vec3 v = m.column[6].xyz;
  put(0u, a * b);
  put(9u, transpose(a));
  put(18u, a * v);
  put(21u, v * a);
  put(24u, a * 2.0);
  put(33u, matrixCompMult(a, b));
  mat2 two = mat2(v.xy, v.yz);
  vec2 t = two * vec2(1.0, 2.0);
  o.v[42] = t.x;
  o.v[43] = t.y;
})";
  std::vector<float> columns(7 * 4, 0.0f);
  for (int c = 0; c < 7; ++c)
    for (int r = 0; r < 3; ++r) columns[c * 4 + r] = input[c * 3 + r];
  auto out = run_glsl(glsl, kWidth, {buffer_of(columns), words_buffer(44)}).floats(1);
  auto a = [&](int c, int r) { return input[c * 3 + r]; };
  auto b = [&](int c, int r) { return input[9 + c * 3 + r]; };
  auto v = [&](int r) { return input[18 + r]; };
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) {
      SCOPED_TRACE("column " + std::to_string(c) + " row " + std::to_string(r));
      float product = 0;
      for (int k = 0; k < 3; ++k) product += a(k, r) * b(c, k);
      EXPECT_EQ(out[c * 3 + r], product);
      EXPECT_EQ(out[9 + c * 3 + r], a(r, c));
      EXPECT_EQ(out[24 + c * 3 + r], a(c, r) * 2);
      EXPECT_EQ(out[33 + c * 3 + r], a(c, r) * b(c, r));
    }
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(out[18 + r], a(0, r) * v(0) + a(1, r) * v(1) + a(2, r) * v(2));  // matrix * vector
    EXPECT_EQ(out[21 + r], v(0) * a(r, 0) + v(1) * a(r, 1) + v(2) * a(r, 2));  // vector * matrix
  }
  EXPECT_EQ(out[0], 9.0f);   // row 0 of A (1,4,7) . column 0 of B (2,0,1)
  EXPECT_EQ(out[42], -3.0f);  // mat2 columns (1,-2), (-2,3) times (1,2): 1*1 + 2*(-2)
  EXPECT_EQ(out[43], 4.0f);   // -2*1 + 2*3
}

// A mat3 member of a std430 block has MatrixStride 16 (each vec3 column is
// aligned like a vec4): column 1 starts at byte 16, not 12.
TEST(InstructionFamilies, MatrixInStorageBufferUsesItsMatrixStride) {
  const char* glsl = R"(#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Block { mat3 m; vec3 after; } block;
layout(std430, set = 0, binding = 1) buffer Out { vec4 v[]; } o;
void main() {
  o.v[0] = vec4(block.m[1], 0.0);
  o.v[1] = vec4(block.m * vec3(0.0, 0.0, 1.0), 0.0);
  o.v[2] = vec4(block.after, 0.0);
  block.m[2] = vec3(-1.0, -2.0, -3.0);
})";
  // Bytes 0..47: columns (1,2,3), (4,5,6), (7,8,9), each followed by padding 99; after @48.
  std::vector<float> bytes = {1, 2, 3, 99, 4, 5, 6, 99, 7, 8, 9, 99, 10, 11, 12, 99};
  Kernel kernel;
  kernel.source = glsl;
  kernel.buffers = {buffer_of(bytes), words_buffer(12)};
  auto result = run_kernel(kernel);
  auto out = result.floats(1);
  EXPECT_EQ(std::vector<float>(out.begin(), out.begin() + 3), (std::vector<float>{4, 5, 6}));
  EXPECT_EQ(std::vector<float>(out.begin() + 4, out.begin() + 7), (std::vector<float>{7, 8, 9}));
  EXPECT_EQ(std::vector<float>(out.begin() + 8, out.begin() + 11), (std::vector<float>{10, 11, 12}));
  EXPECT_EQ(result.floats(0), (std::vector<float>{1, 2, 3, 99, 4, 5, 6, 99, -1, -2, -3, 99, 10, 11, 12, 99}));
}

TEST(InstructionFamilies, AccessChainsIntoStructsAndArrays) {
  // std430 layout of Record, by hand: id @0, position (vec3, align 16) @16,
  // weights[3] @28, inner[2] (Inner: tag @0, pair (vec2, align 8) @8, size 16)
  // @40; the struct aligns to 16, so it is 80 bytes.
  constexpr uint32_t kRecordBytes = 80, kRecords = 4;
  std::vector<uint8_t> bytes(kRecords * kRecordBytes, 0);
  auto put_u32 = [&](uint32_t offset, uint32_t value) { std::memcpy(&bytes[offset], &value, 4); };
  auto put_f32 = [&](uint32_t offset, float value) { std::memcpy(&bytes[offset], &value, 4); };
  for (uint32_t r = 0; r < kRecords; ++r) {
    const uint32_t base = r * kRecordBytes;
    put_u32(base + 0, 1000 + r);
    for (uint32_t k = 0; k < 3; ++k) put_f32(base + 16 + 4 * k, float(r * 10 + k));
    for (uint32_t k = 0; k < 3; ++k) put_f32(base + 28 + 4 * k, float(r) + 0.5f * float(k));
    for (uint32_t n = 0; n < 2; ++n) {
      put_u32(base + 40 + 16 * n, 77 + n);
      put_f32(base + 40 + 16 * n + 8, float(n) - 1.0f);
      put_f32(base + 40 + 16 * n + 12, float(r) * 100.0f + float(n));
    }
  }
  const char* glsl = R"(#version 450
layout(local_size_x = 4) in;
struct Inner { uint tag; vec2 pair; };
struct Record { uint id; vec3 position; float weights[3]; Inner inner[2]; };
layout(std430, set = 0, binding = 0) buffer Records { Record r[]; } records;
layout(std430, set = 0, binding = 1) buffer Out { float v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  o.v[i * 4u + 0u] = float(records.r[i].id);
  o.v[i * 4u + 1u] = records.r[i].position.z;
  o.v[i * 4u + 2u] = records.r[i].weights[2u - i % 3u];
  o.v[i * 4u + 3u] = records.r[i].inner[i % 2u].pair.y;
  records.r[i].inner[1u - i % 2u].tag = i * 10u;
  records.r[i].weights[i % 3u] = -float(i);
  records.r[(i + 1u) % 4u].position.x = 0.25;
})";
  Kernel kernel;
  kernel.source = glsl;
  kernel.subgroup_size = kWidth;
  kernel.buffers = {TestBuffer{bytes}, words_buffer(16)};
  auto result = run_kernel(kernel);
  auto out = result.floats(1);
  std::vector<uint8_t> after = result.as<uint8_t>(0);
  auto u32_at = [&](uint32_t offset) { uint32_t v; std::memcpy(&v, &after[offset], 4); return v; };
  auto f32_at = [&](uint32_t offset) { float v; std::memcpy(&v, &after[offset], 4); return v; };
  for (uint32_t i = 0; i < kRecords; ++i) {
    SCOPED_TRACE("record " + std::to_string(i));
    const uint32_t base = i * kRecordBytes;
    EXPECT_EQ(out[i * 4 + 0], float(1000 + i));
    EXPECT_EQ(out[i * 4 + 1], float(i * 10 + 2));
    EXPECT_EQ(out[i * 4 + 2], float(i) + 0.5f * float(2 - i % 3));
    EXPECT_EQ(out[i * 4 + 3], float(i) * 100.0f + float(i % 2));
    EXPECT_EQ(u32_at(base + 40 + 16 * (1 - i % 2)), i * 10);
    EXPECT_EQ(u32_at(base + 40 + 16 * (i % 2)), 77 + i % 2);  // the other tag is untouched
    EXPECT_EQ(f32_at(base + 28 + 4 * (i % 3)), -float(i));
    EXPECT_EQ(f32_at(base + 16), 0.25f);
    EXPECT_EQ(f32_at(base + 20), float(i * 10 + 1));
  }
}

TEST(InstructionFamilies, AtomicsOnStorageAndSharedMemory) {
  const char* glsl = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Counters { uint add; uint umin; uint umax; int smin; int smax;
                                                     uint and_bits; uint or_bits; uint xor_bits; uint swap; uint exch; } c;
layout(std430, set = 0, binding = 1) buffer Old { uint v[]; } old;
layout(std430, set = 0, binding = 2) buffer Histogram { uint v[]; } histogram;
shared uint bins[4];
void main() {
  uint i = gl_LocalInvocationIndex;
  uint g = gl_GlobalInvocationID.x;
  if (i < 4u) bins[i] = 0u;
  barrier();
  old.v[g] = atomicAdd(c.add, 1u);
  atomicMin(c.umin, 1000u - g);
  atomicMax(c.umax, g * 3u);
  atomicMin(c.smin, int(g) - 50);
  atomicMax(c.smax, 20 - int(g));
  atomicAnd(c.and_bits, ~(1u << (g % 32u)) | 0xF0000000u);
  atomicOr(c.or_bits, 1u << (g % 16u));
  atomicXor(c.xor_bits, g);
  old.v[128u + g] = atomicCompSwap(c.swap, 0u, g + 1u);
  atomicExchange(c.exch, 5u);
  atomicAdd(bins[i % 4u], 1u);
  barrier();
  if (i < 4u) histogram.v[gl_WorkGroupID.x * 4u + i] = bins[i];
})";
  std::vector<uint32_t> counters = {0, 0xFFFFFFFFu, 0, 0, 0, 0xFFFFFFFFu, 0, 0, 0, 9};
  Kernel kernel;
  kernel.source = glsl;
  kernel.subgroup_size = kWidth;
  kernel.workgroups = {2, 1, 1};
  kernel.buffers = {buffer_of(counters), words_buffer(256), words_buffer(8)};
  auto result = run_kernel(kernel);
  auto c = result.uints(0);
  auto old = result.uints(1);
  EXPECT_EQ(c[0], 128u);
  // atomicAdd hands out each old value once, in some order.
  std::set<uint32_t> handed(old.begin(), old.begin() + 128);
  EXPECT_EQ(handed.size(), 128u);
  EXPECT_EQ(*handed.begin(), 0u);
  EXPECT_EQ(*handed.rbegin(), 127u);
  EXPECT_EQ(c[1], 1000u - 127u);
  EXPECT_EQ(c[2], 127u * 3u);
  EXPECT_EQ(int32_t(c[3]), -50);
  EXPECT_EQ(int32_t(c[4]), 20);
  EXPECT_EQ(c[5], 0xF0000000u);
  EXPECT_EQ(c[6], 0xFFFFu);
  uint32_t xor_all = 0;
  for (uint32_t g = 0; g < 128; ++g) xor_all ^= g;
  EXPECT_EQ(c[7], xor_all);
  // Exactly one compare-exchange finds 0 and stores its g + 1.
  uint32_t winners = 0, winner = 0;
  for (uint32_t g = 0; g < 128; ++g)
    if (old[128 + g] == 0) ++winners, winner = g;
  EXPECT_EQ(winners, 1u);
  EXPECT_EQ(c[8], winner + 1);
  for (uint32_t g = 0; g < 128; ++g) {
    if (g != winner) {
      EXPECT_EQ(old[128 + g], winner + 1) << "invocation " << g;
    }
  }
  EXPECT_EQ(c[9], 5u);
  EXPECT_EQ(result.uints(2), std::vector<uint32_t>(8, 16u));
}

TEST(InstructionFamilies, SixtyFourBitIntegers) {
  const std::vector<uint64_t> pairs = {0xFFFFFFFFull,         1ull,
                                       0x123456789ABCDEF0ull, 0x0FEDCBA987654321ull,
                                       uint64_t(-7),          3ull,
                                       0x8000000000000000ull, 2ull};
  const char* glsl = R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) readonly buffer In { u64vec2 v[]; } operands;
layout(std430, set = 0, binding = 1) buffer Out { uint64_t v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint64_t a = operands.v[i].x, b = operands.v[i].y;
  int64_t sa = int64_t(a), sb = int64_t(b);
  uint n = uint(b % 64ul);
  uint b8 = i * 9u;
  o.v[b8 + 0u] = a + b;
  o.v[b8 + 1u] = a - b;
  o.v[b8 + 2u] = a * b;
  o.v[b8 + 3u] = a / b;
  o.v[b8 + 4u] = uint64_t(sa / sb);
  o.v[b8 + 5u] = a << n;
  o.v[b8 + 6u] = uint64_t(sa >> n);
  o.v[b8 + 7u] = uint64_t(uint(a)) | (uint64_t(uint(a >> 32)) << 40);
  o.v[b8 + 8u] = uint64_t(int64_t(int(a)));
})";
  auto out = run_glsl(glsl, kWidth, {buffer_of(pairs), words_buffer(4 * 9 * 2)}).as<uint64_t>(1);
  for (uint32_t i = 0; i < 4; ++i) {
    const uint64_t a = pairs[2 * i], b = pairs[2 * i + 1];
    const int64_t sa = int64_t(a), sb = int64_t(b);
    const uint32_t n = uint32_t(b % 64);
    SCOPED_TRACE("pair " + std::to_string(i));
    EXPECT_EQ(out[i * 9 + 0], a + b);
    EXPECT_EQ(out[i * 9 + 1], a - b);
    EXPECT_EQ(out[i * 9 + 2], a * b);
    EXPECT_EQ(out[i * 9 + 3], a / b);
    EXPECT_EQ(out[i * 9 + 4], uint64_t(sa / sb));
    EXPECT_EQ(out[i * 9 + 5], a << n);
    EXPECT_EQ(out[i * 9 + 6], uint64_t(sa >> n));
    EXPECT_EQ(out[i * 9 + 7], uint64_t(uint32_t(a)) | (uint64_t(uint32_t(a >> 32)) << 40));
    EXPECT_EQ(out[i * 9 + 8], uint64_t(int64_t(int32_t(uint32_t(a)))));
  }
  EXPECT_EQ(out[0 * 9 + 0], 0x100000000ull);           // the carry crosses into the high word
  EXPECT_EQ(out[2 * 9 + 4], uint64_t(-2));             // -7 / 3 truncates
  EXPECT_EQ(out[3 * 9 + 6], 0xE000000000000000ull);    // arithmetic shift keeps the sign
  EXPECT_EQ(out[0 * 9 + 8], 0xFFFFFFFFFFFFFFFFull);    // int(0xFFFFFFFF) = -1 sign-extends
}

}  // namespace
}  // namespace lanelab::unit
