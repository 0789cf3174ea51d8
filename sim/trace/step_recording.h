#pragma once
// A recorded run for stepping: one row per issue cycle of every subgroup of
// one dispatch, taken through the executor's observer interface only. The
// issue model is the lecture's: an instruction on W register lanes issues in
// ceil(W / ALU lanes) cycles, lanes k*A .. k*A+A-1 in its k-th cycle; the ALUs
// are pipelined `pipeline_depth_cycles` deep. One compute unit issues one
// instruction per cycle (schedulers_per_cu = 1 in the teaching models); the
// subgroups of a workgroup take turns one instruction each; workgroups go to
// compute units round robin and run one after another on each.
//
// Watched variables are recorded for one chosen workgroup (all its subgroups):
// a Function variable by its OpName (compile without optimization), or a
// script buffer by its name, read at the lane's global invocation index (the
// lecture's "register a, lane i" is element a[i]).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/execution_observer.h"
#include "sim/devices/device_model.h"
#include "sim/frontend/program.h"
#include "sim/launch/amber_script.h"

namespace lanelab::trace {

// How a watched value's bits read.
enum class ValueKind { Int, Uint, Float, Bool };

struct Watch {
  std::string name;
  ValueKind kind = ValueKind::Int;
  uint32_t bits = 32;
  std::string source;  // "Function variable" or "buffer"
};

std::string format_value(ValueKind kind, uint32_t bits, uint64_t raw);

struct StepRow {
  uint32_t workgroup = 0;       // linear workgroup id
  uint32_t subgroup = 0;
  uint32_t compute_unit = 0;
  uint64_t cycle = 0;           // issue cycle on its compute unit
  uint32_t pc = 0;              // instruction index in the program
  uint16_t issue_part = 0;      // k of this instruction's n issue cycles
  uint16_t issue_parts = 1;     // n = ceil(W / ALU lanes)
  core::LaneMask active = 0;    // lanes the instruction executes on
  core::LaneMask lanes = 0;     // lanes that exist in the subgroup
  core::LaneMask predicate_known = 0;  // lanes with a branch condition so far
  core::LaneMask predicate = 0;        // its value (the lecture's p register)
  uint32_t stack_depth = 0;     // reconvergence stack entries before the instruction
  int64_t values = -1;          // into Recording::values (chosen workgroup only)
  std::vector<std::string> events;
};

struct Recording {
  const frontend::Program* program = nullptr;
  std::shared_ptr<const void> program_owner;
  DeviceModel device;
  uint32_t subgroup_width = 0;            // lanes the executor runs (a power of two)
  uint32_t register_lanes = 0;            // the device's register lanes W (9 on teach-alu3x9)
  uint32_t subgroups_per_workgroup = 0;
  uint32_t workgroup_count = 0;
  uint32_t chosen_workgroup = 0;
  std::vector<std::string> source_lines;  // index = line number - 1
  std::vector<Watch> watches;
  std::vector<StepRow> rows;
  // Per row with values: before-the-instruction and after it, watches x lanes.
  std::vector<uint64_t> values;
  std::vector<uint8_t> value_known;       // same shape: 0 = no value (lane absent, index out of range)
  std::string error;                      // the run stopped with this Error (e.g. a divergent barrier)
  bool truncated = false;                 // stopped at the row limit
  uint64_t total_cycles = 0;              // end of the last instruction on any compute unit

  uint32_t issue_parts() const;
  std::string source_text(int line) const;
  std::string instruction_text(uint32_t pc) const;  // "%12 = OpIAdd" / "OpBranch"
  // Rows of one subgroup in order (indices into rows).
  std::vector<size_t> rows_of(uint32_t workgroup, uint32_t subgroup) const;
  // Value of watch w in `lane` as shown in row r: after the instruction once
  // the lane's result has left the pipeline, before it otherwise.
  std::optional<uint64_t> value(size_t r, size_t w, uint32_t lane) const;
};

struct StepOptions {
  std::string device = "teach-simd4";
  std::optional<uint32_t> subgroup_size;  // overrides the device's width
  uint32_t workgroup = 0;                 // chosen for watched values
  uint32_t dispatch = 0;                  // which RUN of the script
  std::vector<std::string> watch;
  uint64_t max_rows = 2'000'000;
  uint64_t max_steps = 1'000'000;
};

// Runs the script on the simulator (unoptimized SPIR-V) and records the chosen
// dispatch. Errors of the run itself are kept in Recording::error with the rows
// up to them; errors in the options (unknown watch name) are thrown.
Recording record_script(const launch::Script& script, const StepOptions& options);

}  // namespace lanelab::trace
