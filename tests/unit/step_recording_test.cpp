// The step recorder reproduces the lecture's tables through the observer interface.
#include <gtest/gtest.h>

#include "sim/launch/amber_script.h"
#include "sim/trace/step_recording.h"

namespace lanelab::trace {
namespace {

std::string example(const std::string& name) { return std::string(LANELAB_SOURCE_DIR) + "/examples/" + name; }

std::vector<std::string> last_values(const Recording& rec, size_t watch, uint32_t lanes) {
  auto rows = rec.rows_of(0, 0);
  std::vector<std::string> out;
  for (uint32_t lane = 0; lane < lanes; ++lane)
    out.push_back(format_value(rec.watches[watch].kind, rec.watches[watch].bits, *rec.value(rows.back(), watch, lane)));
  return out;
}

TEST(StepRecording, AddSquareOnFourLanesEndsWithTheLectureValues) {
  StepOptions options;
  options.device = "teach-simd4";
  options.watch = {"a", "b"};
  Recording rec = record_script(launch::parse_amber_file(example("simd_add_square.amber")), options);
  EXPECT_TRUE(rec.error.empty());
  EXPECT_EQ(last_values(rec, 0, 4), (std::vector<std::string>{"12", "2", "4", "9"}));
  EXPECT_EQ(last_values(rec, 1, 4), (std::vector<std::string>{"64", "1", "9", "4"}));
  for (size_t r : rec.rows_of(0, 0)) EXPECT_EQ(rec.rows[r].issue_parts, 1);
}

TEST(StepRecording, NineLanesOnThreeAlusIssueInThreeCycles) {
  StepOptions options;
  options.device = "teach-alu3x9";
  Recording rec = record_script(launch::parse_amber_file(example("simd_add_square.amber")), options);
  auto rows = rec.rows_of(0, 0);
  ASSERT_GE(rows.size(), 3u);
  EXPECT_EQ(rec.rows[rows[0]].issue_parts, 3);
  EXPECT_EQ(rec.rows[rows[2]].cycle, 2u);
}

TEST(StepRecording, WhileLoopDivergesAndReconverges) {
  StepOptions options;
  options.watch = {"ai"};
  Recording rec = record_script(launch::parse_amber_file(example("divergent_while.amber")), options);
  int diverge = 0, reconverge = 0;
  for (size_t r : rec.rows_of(0, 0))
    for (const auto& e : rec.rows[r].events) {
      diverge += e.rfind("diverge", 0) == 0;
      reconverge += e.rfind("reconverge", 0) == 0;
    }
  EXPECT_EQ(diverge, 2);
  EXPECT_EQ(reconverge, 1);
  EXPECT_EQ(last_values(rec, 0, 3), (std::vector<std::string>{"0", "0", "0"}));
}

TEST(StepRecording, DivergentBarrierKeepsTheRowsAndTheError) {
  Recording rec = record_script(launch::parse_amber_file(example("divergent_barrier.amber")), {});
  EXPECT_NE(rec.error.find("divergent barrier"), std::string::npos);
  EXPECT_FALSE(rec.rows.empty());
}

}  // namespace
}  // namespace lanelab::trace
