// The bank picture of `lanelab banks`: conflict degrees of the classic
// strided patterns on the device models, as the timing model counts them.
#include "sim/trace/bank_picture.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/devices/device_model.h"

namespace lanelab::trace {
namespace {

// Lane i reads element offset + i*stride of a `bytes`-byte array.
BankPicture strided(const std::string& device, uint32_t stride, uint32_t lanes = 0, uint32_t bytes = 4,
                    uint32_t offset = 0) {
  const DeviceModel model = load_device_model(device);
  if (lanes == 0) lanes = model.subgroup_size;
  std::vector<uint64_t> addresses(lanes);
  for (uint32_t i = 0; i < lanes; ++i) addresses[i] = (uint64_t(offset) + uint64_t(i) * stride) * bytes;
  const core::LaneMask mask = lanes == 64 ? ~core::LaneMask{0} : (core::LaneMask{1} << lanes) - 1;
  return picture_bank_access(model, mask, addresses, bytes);
}

TEST(BankPicture, UnitStrideHasNoConflictOnH100) {
  const BankPicture p = strided("h100", 1);
  EXPECT_EQ(p.degree, 1u);
  EXPECT_EQ(p.wavefronts, 1u);
  EXPECT_EQ(p.replays, 0u);
  for (const auto& words : p.groups.at(0).bank_words) EXPECT_EQ(words.size(), 1u);
  EXPECT_EQ(p.degree_text(), "no bank conflict");
}

TEST(BankPicture, StrideTwoIsTwoWayOnH100) {
  const BankPicture p = strided("h100", 2);
  EXPECT_EQ(p.degree, 2u);
  EXPECT_EQ(p.wavefronts, 2u);
  EXPECT_EQ(p.busiest_bank, 0u);
  EXPECT_EQ(p.groups.at(0).bank_words[0], (std::vector<uint64_t>{0, 32}));
  EXPECT_TRUE(p.groups.at(0).bank_words[1].empty());
  EXPECT_EQ(p.degree_text(), "2-way bank conflict");
}

TEST(BankPicture, StrideThirtyTwoIsThirtyTwoWayOnH100) {
  const BankPicture p = strided("h100", 32);
  EXPECT_EQ(p.degree, 32u);
  EXPECT_EQ(p.wavefronts, 32u);
  EXPECT_EQ(p.replays, 31u);
  EXPECT_EQ(p.groups.at(0).bank_words[0].size(), 32u);
}

TEST(BankPicture, OddStrideHasNoConflict) { EXPECT_EQ(strided("h100", 33).degree, 1u); }

TEST(BankPicture, BroadcastIsFree) {
  const BankPicture p = strided("h100", 0);
  EXPECT_EQ(p.degree, 1u);
  EXPECT_EQ(p.wavefronts, 1u);
  EXPECT_EQ(p.groups.at(0).bank_words[0], (std::vector<uint64_t>{0}));
}

// MI210 serves 16 lanes together: a 64-lane access is four groups, and a
// stride whose conflicts fall between groups costs nothing extra.
TEST(BankPicture, Mi210ServesSixteenLanesTogether) {
  const BankPicture unit = strided("mi210", 1);
  EXPECT_EQ(unit.groups.size(), 4u);
  EXPECT_EQ(unit.degree, 1u);
  EXPECT_EQ(unit.wavefronts, 4u);
  EXPECT_EQ(unit.replays, 0u);
  // Stride 2: 16 lanes reach words 0..30, one per even bank: no conflict
  // (2-way on h100, whose 32 lanes reach words 0..62).
  const BankPicture two = strided("mi210", 2);
  EXPECT_EQ(two.degree, 1u);
  EXPECT_EQ(two.wavefronts, 4u);
  EXPECT_EQ(strided("mi210", 4).degree, 2u);
  EXPECT_EQ(strided("mi210", 32).degree, 16u);
  EXPECT_EQ(strided("mi210", 32).wavefronts, 64u);
}

TEST(BankPicture, EightByteLanesAreServedSixteenAtATime) {
  // 32 lanes x 2 words: two passes of 16 lanes (128 bytes each), neither a conflict.
  const BankPicture p = strided("h100", 1, 32, 8);
  EXPECT_EQ(p.degree, 1u);
  ASSERT_EQ(p.groups.size(), 2u);
  EXPECT_EQ(p.groups.at(0).last_lane, 15u);
  EXPECT_EQ(p.groups.at(0).bank_words[0], (std::vector<uint64_t>{0}));
  EXPECT_EQ(p.groups.at(1).bank_words[0], (std::vector<uint64_t>{32}));
  EXPECT_EQ(p.wavefronts, 2u);
}

TEST(BankPicture, TextAndDotNameTheConflict) {
  const BankPicture p = strided("h100", 2);
  const std::string text = bank_text(p, "stride 2");
  EXPECT_NE(text.find("busiest bank: 0 (lanes 0-31), 2 distinct words: 0 32"), std::string::npos) << text;
  EXPECT_NE(text.find("2-way bank conflict; 2 wavefronts for 1 lane group, 1 replay"), std::string::npos) << text;
  const std::string dot = bank_dot(p, "stride 2");
  EXPECT_NE(dot.find("L16 -> B0 [color=red]"), std::string::npos);
  EXPECT_NE(dot.find("B1 [label=\"bank 1\", color=gray"), std::string::npos);
}

}  // namespace
}  // namespace lanelab::trace
