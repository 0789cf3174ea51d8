#pragma once
// The terminal view of a recorded run: one line per issue cycle of a chosen
// subgroup, lanes as columns inside each register, as the lecture draws it.
#include <string>
#include <vector>

#include "sim/trace/step_recording.h"

namespace lanelab::trace {

struct StepView {
  uint32_t first_lane = 0;
  uint32_t last_lane = 63;   // clamped to the subgroup width
  bool spirv = false;        // add the SPIR-V instruction column
};

// "teach-simd4: 4 register lanes on 4 ALU lanes, ..." and the lane range.
std::string describe_machine(const Recording& recording, uint32_t workgroup, uint32_t subgroup, const StepView& view);
// The table of rows (indices into recording.rows, all of one subgroup), header first.
std::string format_rows(const Recording& recording, const std::vector<size_t>& rows, const StepView& view);
// One watched variable in one row, lanes as "a = 12 2 4 9".
std::string format_watch(const Recording& recording, size_t row, size_t watch, const StepView& view);
// Per lane: which ALU (and pipeline stage) holds which lane in this cycle.
std::string alu_column(const Recording& recording, size_t row, const StepView& view);

}  // namespace lanelab::trace
