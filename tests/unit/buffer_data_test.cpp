#include "sim/launch/buffer_data.h"

#include <cmath>

#include <gtest/gtest.h>

#include "sim/common/error.h"

namespace lanelab::launch {
namespace {

DataType scalar(ScalarKind kind, uint32_t bits) {
  DataType type;
  type.kind = kind;
  type.bits = bits;
  return type;
}

DataType vec(uint32_t rows, DataType component = scalar(ScalarKind::Float, 32)) {
  component.rows = rows;
  return component;
}

DataType mat(uint32_t columns, uint32_t rows, DataType component = scalar(ScalarKind::Float, 32)) {
  component.columns = columns;
  component.rows = rows;
  return component;
}

DataType array_of(DataType type) {
  type.array = true;
  return type;
}

BufferData make_buffer(DataType type, uint64_t elements, Layout layout = Layout::Std430) {
  BufferData buffer;
  buffer.name = "buf";
  buffer.type = type;
  buffer.layout = layout;
  buffer.resize(elements);
  return buffer;
}

uint64_t stride(DataType type, Layout layout) { return make_buffer(type, 1, layout).element_stride(); }

// Bits a literal takes in a one-element buffer of `type`.
uint64_t bits_of(DataType type, const std::string& literal) {
  BufferData buffer = make_buffer(type, 1);
  buffer.set_scalar(0, literal);
  return buffer.scalar_bits(0);
}

const DataType kFloat = scalar(ScalarKind::Float, 32);
const DataType kHalf = scalar(ScalarKind::Float, 16);
const DataType kDouble = scalar(ScalarKind::Float, 64);
const DataType kInt8 = scalar(ScalarKind::Int, 8);
const DataType kInt32 = scalar(ScalarKind::Int, 32);
const DataType kInt64 = scalar(ScalarKind::Int, 64);
const DataType kUint8 = scalar(ScalarKind::Uint, 8);
const DataType kUint32 = scalar(ScalarKind::Uint, 32);
const DataType kUint64 = scalar(ScalarKind::Uint, 64);

TEST(DataTypeName, NamesScalarsVectorsMatricesAndArraysAsAmberDoes) {
  EXPECT_EQ(kUint32.str(), "uint32");
  EXPECT_EQ(kInt8.str(), "int8");
  EXPECT_EQ(kHalf.str(), "float16");
  EXPECT_EQ(kFloat.str(), "float");
  EXPECT_EQ(kDouble.str(), "double");
  EXPECT_EQ(vec(4).str(), "vec4<float>");
  EXPECT_EQ(mat(2, 3, kDouble).str(), "mat2x3<double>");
  EXPECT_EQ(array_of(vec(3, kInt32)).str(), "vec3<int32>[]");
}

TEST(BufferLayout, ScalarsArePackedInStd430AndInStd140WithoutArray) {
  EXPECT_EQ(stride(kFloat, Layout::Std430), 4u);
  EXPECT_EQ(stride(kFloat, Layout::Std140), 4u);
  EXPECT_EQ(stride(kUint8, Layout::Std430), 1u);
  EXPECT_EQ(stride(kDouble, Layout::Std430), 8u);
}

TEST(BufferLayout, Std140PadsArrayElementsTo16Bytes) {
  EXPECT_EQ(stride(array_of(kFloat), Layout::Std140), 16u);
  EXPECT_EQ(stride(array_of(kInt8), Layout::Std140), 16u);
  EXPECT_EQ(stride(array_of(vec(2)), Layout::Std140), 16u);
  EXPECT_EQ(stride(array_of(vec(4, kDouble)), Layout::Std140), 32u);
  EXPECT_EQ(stride(array_of(kFloat), Layout::Std430), 4u);
  EXPECT_EQ(stride(array_of(vec(2)), Layout::Std430), 8u);
}

TEST(BufferLayout, Vec3PadsToVec4InBothLayouts) {
  EXPECT_EQ(stride(vec(3), Layout::Std430), 16u);
  EXPECT_EQ(stride(vec(3), Layout::Std140), 16u);
  EXPECT_EQ(stride(array_of(vec(3, kInt8)), Layout::Std430), 4u);
  EXPECT_EQ(stride(array_of(vec(3, kInt8)), Layout::Std140), 16u);

  BufferData buffer = make_buffer(vec(3), 2);
  EXPECT_EQ(buffer.bytes.size(), 32u);
  EXPECT_EQ(buffer.scalar_count(), 6u);
  EXPECT_EQ(buffer.scalar_offset(2), 8u);
  EXPECT_EQ(buffer.scalar_offset(3), 16u);  // element 1 skips the padding word
}

TEST(BufferLayout, MatrixColumnsAreLaidOutLikeVectors) {
  EXPECT_EQ(stride(mat(2, 2), Layout::Std430), 16u);
  EXPECT_EQ(stride(mat(2, 2), Layout::Std140), 32u);  // each column rounds up to 16 bytes
  EXPECT_EQ(stride(mat(3, 3), Layout::Std430), 48u);
  EXPECT_EQ(stride(array_of(mat(3, 2)), Layout::Std430), 24u);
  EXPECT_EQ(stride(mat(2, 2, kHalf), Layout::Std140), 32u);

  BufferData buffer = make_buffer(mat(2, 3), 1);
  EXPECT_EQ(buffer.scalar_offset(2), 8u);   // column 0, row 2
  EXPECT_EQ(buffer.scalar_offset(3), 16u);  // column 1, row 0
}

TEST(BufferValues, IntegersAcceptHexAndNegativeLiterals) {
  EXPECT_EQ(bits_of(kUint8, "0xff"), 0xffu);
  EXPECT_EQ(bits_of(kUint32, "0X10"), 16u);
  EXPECT_EQ(bits_of(kInt8, "-1"), 0xffu);
  EXPECT_EQ(bits_of(kInt8, "-128"), 0x80u);
  EXPECT_EQ(bits_of(kInt32, "0xFFFFFFFF"), 0xffffffffu);  // a bit pattern spelled in hex
  EXPECT_EQ(bits_of(kInt64, "-9223372036854775808"), 0x8000000000000000u);
  EXPECT_EQ(bits_of(kUint64, "0xffffffffffffffff"), ~uint64_t(0));
}

TEST(BufferValues, IntegersOutOfRangeOrMalformedAreRefused) {
  EXPECT_THROW(bits_of(kUint8, "256"), Error);
  EXPECT_THROW(bits_of(kUint32, "-1"), Error);
  EXPECT_THROW(bits_of(kInt8, "-129"), Error);
  EXPECT_THROW(bits_of(kInt32, "12abc"), Error);
  EXPECT_THROW(bits_of(kInt32, "1.5"), Error);
  EXPECT_THROW(bits_of(kUint64, "18446744073709551616"), Error);
  try {
    bits_of(kUint8, "300");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.message(), "bad uint8 value '300': out of range");
  }
}

TEST(BufferValues, SignedValuesReadBackSigned) {
  BufferData buffer = make_buffer(kInt32, 2);
  buffer.set_scalar(0, "-7");
  buffer.set_scalar(1, "0x7fffffff");
  EXPECT_EQ(buffer.scalar_as_double(0), -7.0);
  EXPECT_EQ(buffer.scalar_text(0), "-7");
  EXPECT_EQ(buffer.scalar_text(1), "2147483647");
}

TEST(BufferValues, FloatsAndDoublesStoreIeeeBits) {
  EXPECT_EQ(bits_of(kFloat, "1.5"), 0x3fc00000u);
  EXPECT_EQ(bits_of(kFloat, "-0.5"), 0xbf000000u);
  EXPECT_EQ(bits_of(kFloat, "3"), 0x40400000u);
  EXPECT_EQ(bits_of(kDouble, "0.1"), 0x3fb999999999999au);
  EXPECT_THROW(bits_of(kFloat, "one"), Error);
  EXPECT_THROW(bits_of(kFloat, ""), Error);
}

TEST(BufferValues, Float16LiteralsRoundToNearestEven) {
  EXPECT_EQ(bits_of(kHalf, "1.0"), 0x3c00u);
  EXPECT_EQ(bits_of(kHalf, "-2"), 0xc000u);
  EXPECT_EQ(bits_of(kHalf, "0.1"), 0x2e66u);
  EXPECT_EQ(bits_of(kHalf, "65504"), 0x7bffu);       // largest half
  EXPECT_EQ(bits_of(kHalf, "65520"), 0x7c00u);       // rounds up to infinity
  EXPECT_EQ(bits_of(kHalf, "6e-8"), 0x0001u);        // smallest subnormal, 2^-24
  EXPECT_EQ(bits_of(kHalf, "1e-8"), 0x0000u);        // below half of it
  EXPECT_EQ(bits_of(kHalf, "6.1035156e-05"), 0x0400u);  // smallest normal
  EXPECT_EQ(bits_of(kHalf, "2049"), 0x6800u);        // tie goes to even 2048
  EXPECT_EQ(bits_of(kHalf, "2051"), 0x6802u);        // tie goes to even 2052
}

TEST(BufferValues, Float16ReadsBackAsDoubleAndRoundTripsThroughText) {
  BufferData buffer = make_buffer(kHalf, 3);
  buffer.set_scalar(0, "0.333333");
  buffer.set_scalar(1, "-1.5");
  buffer.set_scalar(2, "6e-8");
  EXPECT_EQ(buffer.scalar_bits(0), 0x3555u);
  EXPECT_DOUBLE_EQ(buffer.scalar_as_double(0), 0.333251953125);
  EXPECT_EQ(buffer.scalar_as_double(1), -1.5);
  EXPECT_EQ(buffer.scalar_as_double(2), std::ldexp(1.0, -24));
  EXPECT_EQ(buffer.scalar_text(0), "0.3333");  // the fewest digits that name this half
  EXPECT_EQ(buffer.scalar_text(1), "-1.5");
  for (uint64_t i = 0; i < 3; ++i) EXPECT_EQ(bits_of(kHalf, buffer.scalar_text(i)), buffer.scalar_bits(i));
}

TEST(BufferValues, Float16TextIsShortestForTheHalf) {
  BufferData buffer = make_buffer(kHalf, 1);
  buffer.set_scalar(0, "0.1");
  EXPECT_EQ(buffer.scalar_text(0), "0.1");
  buffer.set_scalar(0, "65520");
  EXPECT_EQ(buffer.scalar_text(0), "inf");
  EXPECT_EQ(bits_of(kHalf, "-inf"), 0xfc00u);
}

TEST(BufferValues, FloatTextIsShortestAndReadsBackExactly) {
  BufferData buffer = make_buffer(kFloat, 2);
  buffer.set_scalar(0, "0.1");
  buffer.set_scalar(1, "1e30");
  EXPECT_EQ(buffer.scalar_text(0), "0.1");
  EXPECT_EQ(bits_of(kFloat, buffer.scalar_text(1)), buffer.scalar_bits(1));
}

TEST(BufferValues, StoresLittleEndianAtLayoutOffsets) {
  BufferData buffer = make_buffer(array_of(kUint32), 2, Layout::Std140);
  buffer.set_scalar(1, "0x04030201");
  ASSERT_EQ(buffer.bytes.size(), 32u);
  EXPECT_EQ(buffer.bytes[16], 1);
  EXPECT_EQ(buffer.bytes[19], 4);
  EXPECT_EQ(buffer.bytes[0], 0);
}

TEST(BufferValues, AccessPastTheEndThrows) {
  BufferData buffer = make_buffer(vec(2), 1);
  EXPECT_THROW(buffer.set_scalar(2, "1"), Error);
  EXPECT_THROW(buffer.scalar_bits(2), Error);
}

TEST(BufferResize, GrowsWithZeroesAndShrinks) {
  BufferData buffer = make_buffer(vec(3), 1);
  buffer.set_scalar(0, "5");
  buffer.resize(3);
  EXPECT_EQ(buffer.element_count, 3u);
  EXPECT_EQ(buffer.bytes.size(), 48u);
  EXPECT_EQ(buffer.scalar_as_double(0), 5.0);
  EXPECT_EQ(buffer.scalar_as_double(8), 0.0);
  buffer.resize(1);
  EXPECT_EQ(buffer.bytes.size(), 16u);
}

}  // namespace
}  // namespace lanelab::launch
