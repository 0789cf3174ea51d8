// Structured control flow on the SIMT core at W = 4, 8, 32 and 64: nested
// ifs, loops whose trip count differs per lane, break, continue, early
// return and switch. Inside each construct a subgroupAdd(1) counts the lanes
// running together, which pins the masks the reconvergence stack hands out;
// after it, the same count shows the lanes reconverged.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "sim/core/execution_observer.h"
#include "sim/core/subgroup.h"
#include "tests/unit/test_kernel.h"

namespace lanelab::unit {
namespace {

constexpr uint32_t kInvocations = 64;
constexpr uint32_t kUnwritten = 0xDEADBEEFu;

const char* const kPrologue = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
)";

class ControlFlow : public ::testing::TestWithParam<uint32_t> {
 protected:
  uint32_t width() const { return GetParam(); }
  // Runs a kernel writing `words` words per invocation into binding 0.
  std::vector<uint32_t> run(const std::string& main, uint32_t words) {
    return run_glsl(kPrologue + main, width(), {words_buffer(kInvocations * words, kUnwritten)}).uints(0);
  }
  // How many invocations of i's subgroup satisfy `predicate`.
  template <class Predicate>
  uint32_t lanes_of_subgroup(uint32_t i, Predicate predicate) const {
    uint32_t count = 0;
    for (uint32_t j = i / width() * width(); j < (i / width() + 1) * width(); ++j) count += predicate(j) ? 1u : 0u;
    return count;
  }
};

TEST_P(ControlFlow, NestedIfsRunEachPathWithItsLanesAndReconverge) {
  auto out = run(R"(
void main() {
  uint i = gl_LocalInvocationIndex;
  uint r = 0u, inner = 0u;
  if (i % 2u == 0u) {
    if (i % 4u == 0u) { r = 1u; inner = subgroupAdd(1u); } else { r = 2u; }
    if (i < 16u) r += 10u;
  } else {
    if (i % 3u == 0u) {
      r = 3u;
    } else {
      r = 4u;
      if (i > 40u) { r = 5u; inner = subgroupAdd(1u); }
    }
  }
  o.v[i * 3u + 0u] = r;
  o.v[i * 3u + 1u] = inner;
  o.v[i * 3u + 2u] = subgroupAdd(1u);
})", 3);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    uint32_t r = 0, inner = 0;
    if (i % 2 == 0) {
      if (i % 4 == 0) {
        r = 1;
        inner = lanes_of_subgroup(i, [](uint32_t j) { return j % 4 == 0; });
      } else {
        r = 2;
      }
      if (i < 16) r += 10;
    } else if (i % 3 == 0) {
      r = 3;
    } else {
      r = 4;
      if (i > 40) {
        r = 5;
        inner = lanes_of_subgroup(i, [](uint32_t j) { return j % 2 == 1 && j % 3 != 0 && j > 40; });
      }
    }
    EXPECT_EQ(out[i * 3 + 0], r);
    EXPECT_EQ(out[i * 3 + 1], inner);
    EXPECT_EQ(out[i * 3 + 2], width());
  }
}

// Invocation i loops i times; in trip k the lanes still looping are those of
// the subgroup with more than k trips.
TEST_P(ControlFlow, LoopWithPerLaneTripCounts) {
  auto out = run(R"(
void main() {
  uint i = gl_LocalInvocationIndex;
  uint trips = 0u, together = 0u;
  for (uint k = 0u; k < i; ++k) {
    ++trips;
    together += subgroupAdd(1u);
  }
  o.v[i * 3u + 0u] = trips;
  o.v[i * 3u + 1u] = together;
  o.v[i * 3u + 2u] = subgroupAdd(1u);
})", 3);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    uint32_t together = 0;
    for (uint32_t k = 0; k < i; ++k) together += lanes_of_subgroup(i, [&](uint32_t j) { return j > k; });
    EXPECT_EQ(out[i * 3 + 0], i);
    EXPECT_EQ(out[i * 3 + 1], together);
    EXPECT_EQ(out[i * 3 + 2], width());
  }
}

// Lanes that have not broken out iterate together: in trip k the lanes of the
// subgroup with i % 11 >= k run the body.
TEST_P(ControlFlow, BreakLeavesTheLoopWhileTheOtherLanesIterateTogether) {
  auto out = run(R"(
void main() {
  uint i = gl_LocalInvocationIndex;
  uint sum = 0u, together = 0u;
  for (uint k = 0u; k < 20u; ++k) {
    sum += k;
    together += subgroupAdd(1u);
    if (k >= i % 11u) break;
  }
  o.v[i * 3u + 0u] = sum;
  o.v[i * 3u + 1u] = together;
  o.v[i * 3u + 2u] = subgroupAdd(1u);
})", 3);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    uint32_t sum = 0, together = 0;
    for (uint32_t k = 0; k <= i % 11; ++k) {
      sum += k;
      together += lanes_of_subgroup(i, [&](uint32_t j) { return j % 11 >= k; });
    }
    EXPECT_EQ(out[i * 3 + 0], sum);
    EXPECT_EQ(out[i * 3 + 1], together);
    EXPECT_EQ(out[i * 3 + 2], width());
  }
}

TEST_P(ControlFlow, ContinueAndBreakInOneLoop) {
  auto out = run(R"(
void main() {
  uint i = gl_LocalInvocationIndex;
  uint sum = 0u, trips = 0u;
  for (uint k = 0u; k < 20u; ++k) {
    ++trips;
    if (k % 3u == i % 3u) continue;
    sum += k;
    if (k >= i % 11u) break;
  }
  o.v[i * 3u + 0u] = sum;
  o.v[i * 3u + 1u] = trips;
  o.v[i * 3u + 2u] = subgroupAdd(1u);
})", 3);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    uint32_t sum = 0, trips = 0;
    for (uint32_t k = 0; k < 20; ++k) {
      ++trips;
      if (k % 3 == i % 3) continue;
      sum += k;
      if (k >= i % 11) break;
    }
    EXPECT_EQ(out[i * 3 + 0], sum);
    EXPECT_EQ(out[i * 3 + 1], trips);
    EXPECT_EQ(out[i * 3 + 2], width());
  }
}

TEST_P(ControlFlow, EarlyReturnRemovesLanesForTheRestOfTheKernel) {
  auto out = run(R"(
void main() {
  uint i = gl_LocalInvocationIndex;
  o.v[i * 3u + 0u] = 1u;
  if (i % 4u == 1u) return;
  uint k = 0u;
  for (; k < i % 7u; ++k)
    if (k == 3u && i % 2u == 0u) return;
  o.v[i * 3u + 1u] = k;
  o.v[i * 3u + 2u] = subgroupAdd(1u);
})", 3);
  auto returns = [](uint32_t j) { return j % 4 == 1 || (j % 2 == 0 && j % 7 > 3); };
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    EXPECT_EQ(out[i * 3 + 0], 1u);
    if (returns(i)) {
      EXPECT_EQ(out[i * 3 + 1], kUnwritten);
      EXPECT_EQ(out[i * 3 + 2], kUnwritten);
    } else {
      EXPECT_EQ(out[i * 3 + 1], i % 7);
      EXPECT_EQ(out[i * 3 + 2], lanes_of_subgroup(i, [&](uint32_t j) { return !returns(j); }));
    }
  }
}

TEST_P(ControlFlow, SwitchRunsEachCaseWithItsLanes) {
  auto out = run(R"(
void main() {
  uint i = gl_LocalInvocationIndex;
  uint r = 0u;
  switch (i % 5u) {
    case 0u: r = 10u + 1000u * subgroupAdd(1u); break;
    case 1u:
    case 2u: r = 20u + i; break;
    case 3u: r = 30u;  // falls through
    default: r += 5u;
  }
  o.v[i * 2u + 0u] = r;
  o.v[i * 2u + 1u] = subgroupAdd(1u);
})", 2);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    SCOPED_TRACE("invocation " + std::to_string(i));
    uint32_t r = 0;
    switch (i % 5) {
      case 0: r = 10 + 1000 * lanes_of_subgroup(i, [](uint32_t j) { return j % 5 == 0; }); break;
      case 1:
      case 2: r = 20 + i; break;
      case 3: r = 30; [[fallthrough]];
      default: r += 5;
    }
    EXPECT_EQ(out[i * 2 + 0], r);
    EXPECT_EQ(out[i * 2 + 1], width());
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, ControlFlow, ::testing::Values(4u, 8u, 32u, 64u),
                         [](const auto& info) { return "W" + std::to_string(info.param); });

// Counts instructions by the lanes they ran on, and control events.
class CountingObserver : public core::ExecutionObserver {
 public:
  void on_instruction(const core::Subgroup&, const frontend::Instruction&, core::LaneMask lanes) override {
    ++instructions;
    ++by_mask[lanes];
  }
  void on_control(const core::Subgroup&, const frontend::Instruction&, core::ControlEvent event,
                  core::LaneMask lanes) override {
    events.push_back({event, lanes});
  }
  uint64_t count(core::ControlEvent event) const {
    uint64_t n = 0;
    for (const auto& e : events) n += e.first == event;
    return n;
  }

  uint64_t instructions = 0;
  std::map<core::LaneMask, uint64_t> by_mask;
  std::vector<std::pair<core::ControlEvent, core::LaneMask>> events;
};

const char* const kIfElse = R"(#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } inputs;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint v = inputs.v[i];
  if (v % 2u == 0u) {
    o.v[i] = v * 3u + 1u;
  } else {
    o.v[i] = v / 2u + 7u;
    o.v[i + 8u] = v;
  }
  o.v[i + 16u] = 1u;
})";

CountingObserver observe_if_else(const std::vector<uint32_t>& values, std::vector<uint32_t>* out = nullptr) {
  CountingObserver observer;
  Kernel kernel;
  kernel.source = kIfElse;
  kernel.subgroup_size = 8;
  kernel.optimize = false;  // keep the branch as written
  kernel.observer = &observer;
  kernel.buffers = {buffer_of(values), words_buffer(24)};
  auto result = run_kernel(kernel);
  if (out) *out = result.uints(1);
  return observer;
}

TEST(ControlFlowObserver, DivergentIfElseExecutesBothPathsAndReconverges) {
  const std::vector<uint32_t> mixed = {2, 3, 4, 5, 6, 7, 8, 9};  // even values in lanes 0, 2, 4, 6
  std::vector<uint32_t> out;
  const CountingObserver divergent = observe_if_else(mixed, &out);
  const CountingObserver all_then = observe_if_else({2, 4, 6, 8, 10, 12, 14, 16});
  const CountingObserver all_else = observe_if_else({1, 3, 5, 7, 9, 11, 13, 15});

  for (uint32_t l = 0; l < 8; ++l) {
    EXPECT_EQ(out[l], mixed[l] % 2 == 0 ? mixed[l] * 3 + 1 : mixed[l] / 2 + 7);
    EXPECT_EQ(out[16 + l], 1u);
  }

  const core::LaneMask even_lanes = 0b01010101, odd_lanes = 0b10101010, all_lanes = 0xFF;
  ASSERT_EQ(divergent.count(core::ControlEvent::Diverge), 1u);
  EXPECT_EQ(divergent.events.front().first, core::ControlEvent::Diverge);
  EXPECT_EQ(divergent.events.front().second, even_lanes);  // the lanes taking the true path
  bool reconverged = false;
  for (const auto& [event, lanes] : divergent.events) reconverged |= event == core::ControlEvent::Reconverge && lanes == all_lanes;
  EXPECT_TRUE(reconverged);
  EXPECT_EQ(all_then.count(core::ControlEvent::Diverge), 0u);
  EXPECT_EQ(all_else.count(core::ControlEvent::Diverge), 0u);

  // Every instruction ran with all lanes, the even lanes (then path) or the odd ones (else path).
  const uint64_t shared = divergent.by_mask.at(all_lanes);
  const uint64_t then_path = divergent.by_mask.at(even_lanes), else_path = divergent.by_mask.at(odd_lanes);
  EXPECT_EQ(divergent.by_mask.size(), 3u);
  EXPECT_EQ(divergent.instructions, shared + then_path + else_path);
  EXPECT_GT(else_path, then_path);  // the else path stores twice
  // Uniform runs execute one path each; the divergent run executes both.
  EXPECT_EQ(all_then.instructions, shared + then_path);
  EXPECT_EQ(all_else.instructions, shared + else_path);
  EXPECT_EQ(divergent.instructions, all_then.instructions + all_else.instructions - shared);
}

TEST(ControlFlowObserver, EarlyReturnIsReportedAsExitOfItsLanes) {
  CountingObserver observer;
  Kernel kernel;
  kernel.source = R"(#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  if (i >= 5u) return;
  o.v[i] = i + 1u;
})";
  kernel.subgroup_size = 8;
  kernel.optimize = false;
  kernel.observer = &observer;
  kernel.buffers = {words_buffer(8)};
  auto out = run_kernel(kernel).uints(0);
  EXPECT_EQ(out, (std::vector<uint32_t>{1, 2, 3, 4, 5, 0, 0, 0}));
  core::LaneMask exited = 0;
  for (const auto& [event, lanes] : observer.events)
    if (event == core::ControlEvent::Exit) exited |= lanes;
  EXPECT_EQ(exited, 0xFFu);
  ASSERT_GE(observer.count(core::ControlEvent::Exit), 2u);
  EXPECT_EQ(observer.events.front().first, core::ControlEvent::Diverge);
}

}  // namespace
}  // namespace lanelab::unit
