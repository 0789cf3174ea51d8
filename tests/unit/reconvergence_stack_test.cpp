#include "sim/core/reconvergence_stack.h"

#include <gtest/gtest.h>

namespace lanelab::core {
namespace {

using frontend::kExitBlock;

// A program of `count` blocks of two instructions each (block b starts at 2b),
// with the successors and post-dominators the tests describe in words; the
// stack only reads where each block starts.
frontend::Program program_of_blocks(uint32_t count) {
  frontend::Program program;
  program.blocks.resize(count);
  for (uint32_t b = 0; b < count; ++b) {
    program.blocks[b].first = 2 * b;
    program.blocks[b].end = 2 * b + 2;
  }
  return program;
}

TEST(ReconvergenceStack, ResetHoldsOneEntryThatEndsAtTheKernelExit) {
  auto program = program_of_blocks(2);
  ReconvergenceStack stack;
  stack.reset(1, 2, 0xF);
  ASSERT_EQ(stack.depth(), 1u);
  EXPECT_EQ(stack.top().block, 1u);
  EXPECT_EQ(stack.top().pc, 2u);
  EXPECT_EQ(stack.top().mask, 0xFu);
  EXPECT_EQ(stack.top().reconverge_block, kExitBlock);
}

TEST(ReconvergenceStack, UniformJumpMovesTheTopEntryWithoutPushing) {
  auto program = program_of_blocks(4);
  ReconvergenceStack stack;
  stack.reset(0, 0, 0xFF);
  EXPECT_FALSE(stack.jump(program, 3));
  ASSERT_EQ(stack.depth(), 1u);
  EXPECT_EQ(stack.top().block, 3u);
  EXPECT_EQ(stack.top().pc, 6u);
  EXPECT_EQ(stack.top().mask, 0xFFu);
}

// Block 0 branches to 1 (then) or 2 (else); both go to 3 (the ipdom).
TEST(ReconvergenceStack, TwoWayDivergenceRunsTruePathThenFalsePathThenReconvergesWithAllLanes) {
  auto program = program_of_blocks(4);
  ReconvergenceStack stack;
  stack.reset(0, 0, 0xF);
  stack.diverge(program, {{1, 0b0011}, {2, 0b1100}}, 3);
  ASSERT_EQ(stack.depth(), 3u);
  EXPECT_EQ(stack.entries()[0].block, 3u);  // the whole subgroup waits at the ipdom
  EXPECT_EQ(stack.entries()[0].pc, 6u);
  EXPECT_EQ(stack.entries()[0].mask, 0xFu);
  EXPECT_EQ(stack.top().block, 1u);
  EXPECT_EQ(stack.top().pc, 2u);
  EXPECT_EQ(stack.top().mask, 0b0011u);
  EXPECT_EQ(stack.top().reconverge_block, 3u);

  EXPECT_TRUE(stack.jump(program, 3));  // the true path arrives: popped
  ASSERT_EQ(stack.depth(), 2u);
  EXPECT_EQ(stack.top().block, 2u);
  EXPECT_EQ(stack.top().pc, 4u);
  EXPECT_EQ(stack.top().mask, 0b1100u);

  EXPECT_TRUE(stack.jump(program, 3));  // the false path arrives: reconverged
  ASSERT_EQ(stack.depth(), 1u);
  EXPECT_EQ(stack.top().block, 3u);
  EXPECT_EQ(stack.top().pc, 6u);
  EXPECT_EQ(stack.top().mask, 0xFu);
}

TEST(ReconvergenceStack, PathStartingAtTheReconvergenceBlockIsNotPushed) {
  auto program = program_of_blocks(3);
  ReconvergenceStack stack;
  stack.reset(0, 0, 0xF);
  // An if without else: the false lanes go straight to the merge block 2.
  stack.diverge(program, {{1, 0b0101}, {2, 0b1010}}, 2);
  ASSERT_EQ(stack.depth(), 2u);
  EXPECT_EQ(stack.top().block, 1u);
  EXPECT_EQ(stack.top().mask, 0b0101u);
  EXPECT_TRUE(stack.jump(program, 2));
  ASSERT_EQ(stack.depth(), 1u);
  EXPECT_EQ(stack.top().mask, 0xFu);
}

TEST(ReconvergenceStack, PathWithoutLanesIsNotPushed) {
  auto program = program_of_blocks(4);
  ReconvergenceStack stack;
  stack.reset(0, 0, 0xF);
  stack.diverge(program, {{1, 0xF}, {2, 0}}, 3);
  ASSERT_EQ(stack.depth(), 2u);
  EXPECT_EQ(stack.top().block, 1u);
  EXPECT_EQ(stack.top().mask, 0xFu);
}

// Block 0: outer if -> 1 (then) or 5 (merge). Block 1: inner if -> 2 or 3,
// merging at 4; block 4 goes on to 5.
TEST(ReconvergenceStack, NestedDivergenceReconvergesInnerPathsBeforeOuterOnes) {
  auto program = program_of_blocks(6);
  ReconvergenceStack stack;
  stack.reset(0, 0, 0xFF);
  stack.diverge(program, {{1, 0x0F}, {5, 0xF0}}, 5);
  ASSERT_EQ(stack.depth(), 2u);
  stack.diverge(program, {{2, 0x03}, {3, 0x0C}}, 4);
  ASSERT_EQ(stack.depth(), 4u);
  EXPECT_EQ(stack.entries()[1].block, 4u);  // the outer then-path now waits at the inner merge
  EXPECT_EQ(stack.entries()[1].mask, 0x0Fu);
  EXPECT_EQ(stack.entries()[1].reconverge_block, 5u);
  EXPECT_EQ(stack.top().block, 2u);
  EXPECT_EQ(stack.top().mask, 0x03u);

  EXPECT_TRUE(stack.jump(program, 4));
  EXPECT_EQ(stack.top().block, 3u);
  EXPECT_EQ(stack.top().mask, 0x0Cu);
  EXPECT_TRUE(stack.jump(program, 4));
  ASSERT_EQ(stack.depth(), 2u);
  EXPECT_EQ(stack.top().block, 4u);
  EXPECT_EQ(stack.top().pc, 8u);
  EXPECT_EQ(stack.top().mask, 0x0Fu);

  EXPECT_TRUE(stack.jump(program, 5));
  ASSERT_EQ(stack.depth(), 1u);
  EXPECT_EQ(stack.top().block, 5u);
  EXPECT_EQ(stack.top().mask, 0xFFu);
}

// Block 0 -> header 1; the header branches to the body 2 or the exit 3 (its
// ipdom); the body jumps back to 1. Lane l runs l + 1 trips.
TEST(ReconvergenceStack, LoopIterationsReplaceTheLoopEntryInsteadOfGrowingTheStack) {
  auto program = program_of_blocks(4);
  const uint32_t width = 64;
  ReconvergenceStack stack;
  stack.reset(0, 0, full_mask(width));
  stack.jump(program, 1);
  size_t deepest = stack.depth();
  uint32_t trips = 0;
  for (uint32_t trip = 0;; ++trip) {
    LaneMask running = stack.top().mask;
    LaneMask staying = 0;
    for_each_lane(running, [&](uint32_t lane) {
      if (trip < lane + 1) staying |= LaneMask{1} << lane;
    });
    if (staying == 0) {
      stack.jump(program, 3);
      break;
    }
    if (staying == running) {
      stack.jump(program, 2);
    } else {
      stack.diverge(program, {{2, staying}, {3, running & ~staying}}, 3);
    }
    ASSERT_EQ(stack.top().block, 2u);
    ASSERT_EQ(stack.top().mask, staying);
    deepest = std::max(deepest, stack.depth());
    stack.jump(program, 1);  // back edge
    ++trips;
  }
  EXPECT_EQ(trips, width);
  EXPECT_EQ(deepest, 2u);
  ASSERT_EQ(stack.depth(), 1u);
  EXPECT_EQ(stack.top().block, 3u);
  EXPECT_EQ(stack.top().mask, full_mask(width));
}

TEST(ReconvergenceStack, ExitLanesLeaveEveryEntryAndEmptyEntriesArePopped) {
  auto program = program_of_blocks(4);
  ReconvergenceStack stack;
  stack.reset(0, 0, 0xF);
  stack.diverge(program, {{1, 0b0011}, {2, 0b1100}}, 3);
  stack.exit_lanes(0b0001);
  ASSERT_EQ(stack.depth(), 3u);
  EXPECT_EQ(stack.top().mask, 0b0010u);
  EXPECT_EQ(stack.entries()[1].mask, 0b1100u);
  EXPECT_EQ(stack.entries()[0].mask, 0b1110u);

  stack.exit_lanes(0b0010);  // the true path has no lanes left
  ASSERT_EQ(stack.depth(), 2u);
  EXPECT_EQ(stack.top().block, 2u);
  EXPECT_EQ(stack.top().mask, 0b1100u);
  EXPECT_EQ(stack.entries()[0].mask, 0b1100u);

  EXPECT_TRUE(stack.jump(program, 3));
  ASSERT_EQ(stack.depth(), 1u);
  EXPECT_EQ(stack.top().mask, 0b1100u);
  stack.exit_lanes(0b1100);
  EXPECT_TRUE(stack.empty());
}

TEST(ReconvergenceStack, JumpToTheExitBlockFinishesTheEntry) {
  auto program = program_of_blocks(2);
  ReconvergenceStack stack;
  stack.reset(0, 0, 0xF);
  EXPECT_TRUE(stack.jump(program, kExitBlock));
  EXPECT_TRUE(stack.empty());
}

// Both paths of a branch return: the ipdom is the virtual exit block, which is
// also what the bottom entry waits for, so that entry is replaced.
TEST(ReconvergenceStack, DivergenceReconvergingAtTheExitReplacesTheKernelEntry) {
  auto program = program_of_blocks(3);
  ReconvergenceStack stack;
  stack.reset(0, 0, 0xF);
  stack.diverge(program, {{1, 0b0011}, {2, 0b1100}}, kExitBlock);
  ASSERT_EQ(stack.depth(), 2u);
  EXPECT_EQ(stack.top().block, 1u);
  EXPECT_EQ(stack.top().reconverge_block, kExitBlock);
  stack.exit_lanes(0b0011);
  ASSERT_EQ(stack.depth(), 1u);
  EXPECT_EQ(stack.top().block, 2u);
  EXPECT_EQ(stack.top().mask, 0b1100u);
  stack.exit_lanes(0b1100);
  EXPECT_TRUE(stack.empty());
}

}  // namespace
}  // namespace lanelab::core
