// Workgroup barriers and the refusals of the functional executor: a barrier
// orders shared-memory exchange between subgroups; a barrier not reached by
// every lane of every subgroup, an out-of-bounds access and a runaway loop
// are each refused with an Error that says where and which lanes.
#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/test_kernel.h"

namespace lanelab::unit {
namespace {

Kernel glsl_kernel(const std::string& source, uint32_t subgroup_size, std::vector<TestBuffer> buffers) {
  Kernel kernel;
  kernel.source = source;
  kernel.subgroup_size = subgroup_size;
  kernel.buffers = std::move(buffers);
  return kernel;
}

// Each invocation writes its slot of shared memory and reads the slot of the
// mirrored invocation, which lies in another subgroup.
std::string exchange_kernel(bool with_barrier) {
  return std::string(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
shared uint slots[64];
void main() {
  uint i = gl_LocalInvocationIndex;
  slots[i] = i * 3u + 1u;
)") + (with_barrier ? "  barrier();\n" : "") + R"(  o.v[i] = slots[63u - i];
})";
}

TEST(Barrier, SharedMemoryExchangeAcrossSubgroupsIsCorrectWithTheBarrier) {
  for (uint32_t width : {4u, 8u, 32u}) {
    SCOPED_TRACE("W=" + std::to_string(width));
    auto out = run_glsl(exchange_kernel(true), width, {words_buffer(64)}).uints(0);
    for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(out[i], (63 - i) * 3 + 1) << "invocation " << i;
  }
}

// Without the barrier, subgroup 0 runs ahead and reads slots the last subgroup
// has not written yet: the barrier is what makes the exchange right.
TEST(Barrier, SharedMemoryExchangeWithoutTheBarrierReadsUnwrittenSlots) {
  auto out = run_glsl(exchange_kernel(false), 8, {words_buffer(64)}).uints(0);
  EXPECT_EQ(out[0], 0u);
  uint32_t correct = 0;
  for (uint32_t i = 0; i < 64; ++i) correct += out[i] == (63 - i) * 3 + 1;
  EXPECT_LT(correct, 64u);
}

TEST(Barrier, BarrierInDivergentBranchIsRefusedNamingTheLanes) {
  const Error error = kernel_error(glsl_kernel(R"(#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  if (i < 5u) {
    barrier();
  }
  o.v[i] = i;
})", 8, {words_buffer(8)}));
  EXPECT_TRUE(contains(error.what(), "divergent barrier"));
  EXPECT_TRUE(contains(error.what(), "lanes 5-7 of subgroup 0 are masked off"));
  EXPECT_TRUE(contains(error.what(), "lanes 0-4 reached the barrier"));
  EXPECT_TRUE(contains(error.what(), "unit_kernel.amber:"));
  EXPECT_GT(error.place().line, 0);
}

TEST(Barrier, BarrierReachedBySomeSubgroupsOnlyIsRefused) {
  const Error error = kernel_error(glsl_kernel(R"(#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  if (i < 8u) {
    barrier();
  }
  o.v[i] = i;
})", 8, {words_buffer(16)}));
  EXPECT_TRUE(contains(error.what(), "divergent barrier"));
  EXPECT_TRUE(contains(error.what(), "subgroup 1 finished without reaching it"));
}

TEST(Barrier, SubgroupsWaitingAtDifferentBarriersAreRefused) {
  const Error error = kernel_error(glsl_kernel(R"(#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  if (i < 8u) {
    o.v[i] = 1u;
    barrier();
  } else {
    o.v[i] = 2u;
    barrier();
  }
})", 8, {words_buffer(16)}));
  EXPECT_TRUE(contains(error.what(), "divergent barrier"));
  EXPECT_TRUE(contains(error.what(), "waits at a different barrier"));
}

const char* const kBarrierAfterEarlyReturn = R"(#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  if (i == 3u) return;
  barrier();
  o.v[i] = i;
})";

TEST(Barrier, BarrierAfterEarlyReturnOfSomeLanesIsRefused) {
  Kernel kernel = glsl_kernel(kBarrierAfterEarlyReturn, 8, {words_buffer(8)});
  kernel.optimize = false;  // the returning path runs first, as written
  const Error error = kernel_error(kernel);
  EXPECT_TRUE(contains(error.what(), "divergent barrier"));
  EXPECT_TRUE(contains(error.what(), "lanes 3 of subgroup 0 are gone (returned early)"));
  EXPECT_TRUE(contains(error.what(), "while lanes 0-2,4-7 reached the barrier"));
}

TEST(Barrier, BarrierAfterEarlyReturnOfSomeLanesIsRefusedWhenOptimized) {
  const Error error = kernel_error(glsl_kernel(kBarrierAfterEarlyReturn, 8, {words_buffer(8)}));
  EXPECT_TRUE(contains(error.what(), "divergent barrier: lanes 3 of subgroup 0"));
  EXPECT_TRUE(contains(error.what(), "while lanes 0-2,4-7 reached the barrier"));
}

TEST(Barrier, UniformBarriersInALoopRelease) {
  auto out = run_glsl(R"(#version 450
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
shared uint sums[32];
void main() {
  uint i = gl_LocalInvocationIndex;
  sums[i] = i;
  barrier();
  for (uint stride = 16u; stride > 0u; stride /= 2u) {
    if (i < stride) sums[i] += sums[i + stride];
    barrier();
  }
  o.v[i] = sums[0];
})", 4, {words_buffer(32)}).uints(0);
  EXPECT_EQ(out, std::vector<uint32_t>(32, 31u * 32u / 2u));
}

TEST(MemoryBounds, OutOfBoundsStorageStoreIsRefusedWithLaneAndSize) {
  const Error error = kernel_error(glsl_kernel(R"(#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  o.v[i + 4u] = i;
})", 8, {words_buffer(8)}));
  EXPECT_TRUE(contains(error.what(), "out of bounds store"));
  EXPECT_TRUE(contains(error.what(), "at byte offset 32"));
  EXPECT_TRUE(contains(error.what(), "its size is 32 bytes"));
  EXPECT_TRUE(contains(error.what(), "lane 4"));
  ASSERT_TRUE(error.place().lane.has_value());
  EXPECT_EQ(*error.place().lane, 4u);
}

TEST(MemoryBounds, OutOfBoundsSharedLoadIsRefusedWithLaneAndSize) {
  const Error error = kernel_error(glsl_kernel(R"(#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } inputs;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
shared uint slots[4];
void main() {
  uint i = gl_LocalInvocationIndex;
  slots[i % 4u] = i;
  barrier();
  o.v[i] = slots[inputs.v[i]];
})", 8, {buffer_of(std::vector<uint32_t>{0, 1, 2, 3, 3, 2, 6, 1}), words_buffer(8)}));
  EXPECT_TRUE(contains(error.what(), "out of bounds load"));
  EXPECT_TRUE(contains(error.what(), "at byte offset 24"));
  EXPECT_TRUE(contains(error.what(), "its size is 16 bytes"));
  ASSERT_TRUE(error.place().lane.has_value());
  EXPECT_EQ(*error.place().lane, 6u);
}

TEST(MaxSteps, RunawayLoopIsStoppedAtMaxSteps) {
  Kernel kernel = glsl_kernel(R"(#version 450
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Limit { uint v[]; } limit;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } o;
void main() {
  uint i = gl_LocalInvocationIndex;
  for (uint k = 0u; k < limit.v[i]; ++k) o.v[i] += k;
})", 8, {buffer_of(std::vector<uint32_t>{1, 2, 3, 4, 0x7FFFFFFF, 5, 6, 7}), words_buffer(8)});
  kernel.max_steps = 10'000;
  const Error error = kernel_error(kernel);
  EXPECT_TRUE(contains(error.what(), "ran past --max-steps 10000"));
  EXPECT_TRUE(contains(error.what(), "with lanes 4 still active"));
}

}  // namespace
}  // namespace lanelab::unit
