// The compiler's instruction scheduling the timing model assumes
// (block_scheduler.h): a reordered block computes what the block as written
// does, keeps its memory accesses and barriers in order, and lets a subgroup
// issue independent work while a load is on its way.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "kernels/workload.h"
#include "sim/core/dispatch.h"
#include "sim/devices/device_model.h"
#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"
#include "sim/timing/block_scheduler.h"
#include "sim/timing/instruction_class.h"
#include "sim/timing/timing_model.h"

namespace lanelab::timing {
namespace {

// One workgroup of 32 lanes running `body` (after the storage buffer `buf`
// and the declarations `shared`), over `buffer`, an AmberScript BUFFER line.
launch::Script one_workgroup(const std::string& shared, const std::string& body, const std::string& buffer) {
  return launch::parse_amber(
      "#!amber\nSHADER compute k GLSL\n#version 450\nlayout(local_size_x = 32) in;\n"
      "layout(std430, set = 0, binding = 0) buffer B { uint v[]; } buf;\n" + shared + "\n" + body + "\nEND\n" +
          buffer + "\nPIPELINE compute pipe\n  ATTACH k\n  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n"
          "RUN pipe 1 1 1\n",
      "inline.amber");
}

// The simulator running each pipeline's program as the timing model issues
// it: unrolled, short branches predicated, the subgroup size folded, then
// every block scheduled.
class ScheduledBackend : public launch::ComputeBackend {
 public:
  explicit ScheduledBackend(const DeviceModel& device)
      : latency_(device.latency_cycles),
        compiler_(launch::SimulatorOptions{32, true, true, 100'000'000, nullptr,
                                           TimingOptions{}.flatten_branches_up_to, TimingOptions{}.fold_subgroup_size}) {}
  void require(const launch::Script& script) override { compiler_.require(script); }
  void dispatch(const launch::Script& script, const launch::PipelineDecl& pipeline, const launch::RunCommand& run,
                std::map<std::string, launch::BufferData>& buffers) override {
    auto& program = scheduled_[pipeline.name];
    if (!program) program = std::make_unique<frontend::Program>(schedule_blocks(compiler_.program(script, pipeline), latency_));
    const std::vector<core::BoundBuffer> bound = launch::bind_buffers(script, pipeline, buffers);
    core::run_dispatch(core::make_dispatch(*program, 32, {run.groups[0], run.groups[1], run.groups[2]}, bound));
  }
  const frontend::Program& compiled(const launch::Script& script, const launch::PipelineDecl& pipeline) {
    return compiler_.program(script, pipeline);
  }
  const frontend::Program& scheduled(const std::string& pipeline) const { return *scheduled_.at(pipeline); }

 private:
  InstructionLatencyCycles latency_;
  launch::SimulatorBackend compiler_;
  std::map<std::string, std::unique_ptr<frontend::Program>> scheduled_;
};

// The storage class a load, store or atomic reaches, of its program's pointer_classes.
InstrClass storage_class(const frontend::Program& program, const std::vector<InstrClass>& classes,
                         const frontend::Instruction& access) {
  const uint32_t pointer = program.operands[access.operand_begin];
  return pointer < classes.size() ? classes[pointer] : InstrClass::Other;
}

struct SuitePoint {
  std::string workload;
  kernels::Params params;
};

std::vector<SuitePoint> suite_points() {
  std::vector<SuitePoint> points;
  for (const char* k : {"Threadgroup1d32", "Threadgroup2d32", "Threadgroup1d8", "Threadgroup2d8", "Shuffle32", "Shuffle8",
                        "HybridShuffle32", "Ballot32"})
    points.push_back({"transpose", {{"kernel", k}, {"matrices", "16"}, {"workgroup_size", "64"}}});
  for (const char* v : {"interleaved_divergent", "sequential", "first_add_during_load", "unrolled_barriers", "subgroup_add"})
    points.push_back({"reduce", {{"variant", v}, {"n", "4096"}, {"workgroup_size", "128"}}});
  points.push_back({"luminance", {{"variant", "fetch4_8x32"}, {"image", "64x64"}}});
  for (const char* layout : {"row", "column"})
    points.push_back({"apsp", {{"n", "40"}, {"edges", "160"}, {"block_factor", "16"}, {"tile_layout", layout}}});
  // 2x2 cells a lane: a cell's own word loaded ahead of the cell before's store.
  points.push_back({"apsp", {{"n", "64"}, {"edges", "256"}, {"block_factor", "32"}, {"threads", "16x16"}}});
  return points;
}

TEST(BlockScheduler, ScheduledSuiteKernelsComputeWhatTheyComputeAsWritten) {
  const DeviceModel device = load_device_model("h100");
  for (const SuitePoint& point : suite_points()) {
    const kernels::Workload& w = *kernels::find_workload(point.workload);
    const kernels::Params params = w.with_defaults(point.params);
    std::string what = point.workload;
    for (const auto& [k, v] : point.params) what += " " + k + "=" + v;
    SCOPED_TRACE(what);
    const launch::Script script = w.build(params);
    launch::SimulatorBackend as_written(launch::SimulatorOptions{32, true, true, 100'000'000, nullptr});
    ScheduledBackend scheduled(device);
    const launch::ScriptResult expected = launch::run_script(script, as_written);
    const launch::ScriptResult got = launch::run_script(script, scheduled);
    for (const auto& [name, data] : expected.buffers) EXPECT_EQ(got.buffers.at(name).bytes, data.bytes) << name;
    const kernels::CheckResult check = w.check(params, got.buffers);
    EXPECT_EQ(check.passed, w.check(params, expected.buffers).passed) << check.message;
  }
}

TEST(BlockScheduler, ABlockKeepsItsInstructionsItsMemoryOrderAndItsDependences) {
  const DeviceModel device = load_device_model("h100");
  size_t moved = 0;
  for (const SuitePoint& point : suite_points()) {
    const kernels::Workload& w = *kernels::find_workload(point.workload);
    const launch::Script script = w.build(w.with_defaults(point.params));
    ScheduledBackend backend(device);
    for (const launch::PipelineDecl& pipeline : script.pipelines) {
      SCOPED_TRACE(point.workload + " " + pipeline.name);
      const frontend::Program& before = backend.compiled(script, pipeline);
      const frontend::Program after = schedule_blocks(before, device.latency_cycles);
      const std::vector<InstrClass> before_classes = pointer_classes(before), after_classes = pointer_classes(after);
      ASSERT_EQ(after.instructions.size(), before.instructions.size());
      for (const frontend::Block& block : before.blocks) {
        // The same instructions (by result and opcode), each storage
        // class's memory accesses in the same order (shared memory's stores;
        // its loads may pass loads, and stores of other words), phis and
        // barriers where they were, the terminator last, and every value
        // defined before its use.
        std::multiset<std::pair<uint32_t, uint16_t>> a, b;
        std::map<InstrClass, std::vector<const frontend::Instruction*>> ordered_before, ordered_after;
        for (uint32_t i = block.first; i < block.end; ++i) {
          const frontend::Instruction& x = before.instructions[i];
          const frontend::Instruction& y = after.instructions[i];
          a.insert({x.result_id, x.opcode});
          b.insert({y.result_id, y.opcode});
          if (x.result_id != y.result_id || x.opcode != y.opcode) ++moved;
          const auto kept_in_order = [](const frontend::Program& program, const std::vector<InstrClass>& classes,
                                        const frontend::Instruction& in) {
            return classify_instruction(in) == InstrClass::Global &&
                   (storage_class(program, classes, in) != InstrClass::Shared || spv::Op(in.opcode) != spv::Op::OpLoad);
          };
          if (kept_in_order(before, before_classes, x)) ordered_before[storage_class(before, before_classes, x)].push_back(&x);
          if (kept_in_order(after, after_classes, y)) ordered_after[storage_class(after, after_classes, y)].push_back(&y);
          if (spv::Op(x.opcode) == spv::Op::OpPhi || classify_instruction(x) == InstrClass::Barrier) {
            EXPECT_EQ(y.opcode, x.opcode);
          }
        }
        EXPECT_EQ(a, b);
        ASSERT_EQ(ordered_before.size(), ordered_after.size());
        for (const auto& [storage, accesses] : ordered_before) {
          const auto& reordered = ordered_after[storage];
          ASSERT_EQ(reordered.size(), accesses.size());
          for (size_t k = 0; k < accesses.size(); ++k) {
            EXPECT_EQ(reordered[k]->result_id, accesses[k]->result_id);
            EXPECT_EQ(reordered[k]->opcode, accesses[k]->opcode);
            EXPECT_EQ(reordered[k]->operand_begin, accesses[k]->operand_begin);
          }
        }
        EXPECT_EQ(after.instructions[block.end - 1].opcode, before.instructions[block.end - 1].opcode);
        std::set<uint32_t> written_later;
        for (uint32_t i = block.first; i < block.end; ++i)
          if (after.instructions[i].result_id != frontend::kNoId && spv::Op(after.instructions[i].opcode) != spv::Op::OpPhi)
            written_later.insert(after.instructions[i].result_slot);
        for (uint32_t i = block.first; i < block.end; ++i) {
          const frontend::Instruction& in = after.instructions[i];
          frontend::for_each_read_slot(after, in, [&](uint32_t slot, bool) {
            EXPECT_FALSE(written_later.count(slot)) << after.where(in) << " reads a value defined after it";
          });
          written_later.erase(in.result_slot);
        }
      }
    }
  }
  EXPECT_GT(moved, 0u);  // the scheduler did reorder something
}

TEST(BlockScheduler, ASubgroupIssuesIndependentWorkWhileItsLoadIsOnTheWay) {
  // One subgroup: a shared load whose use comes first in the source, then a
  // chain of multiply-adds that does not need it (the last use, an xor,
  // fuses with neither).
  const launch::Script script = one_workgroup("shared uint s[32];",
                                              "void main() { uint i = gl_LocalInvocationID.x; s[i] = i; barrier();\n"
                                              "  uint a = s[i ^ 1u] * 3u; uint x = i;\n"
                                              "  for (uint k = 0u; k < 8u; ++k) x = x * 2654435761u + k;\n"
                                              "  buf.v[i] = a ^ x; }",
                                              "BUFFER buf DATA_TYPE uint32 SIZE 32 FILL 0");
  const DeviceModel device = load_device_model("h100");
  TimingOptions in_order;
  in_order.schedule_blocks = false;
  const Prediction written = predict(script, device, in_order);
  const Prediction scheduled = predict(script, device, {});
  EXPECT_EQ(scheduled.counters.instructions, written.counters.instructions);
  // As written the subgroup waits for the load before the multiplies;
  // scheduled, the multiplies fill that wait.
  EXPECT_LT(scheduled.compute_seconds, written.compute_seconds);
  EXPECT_LT(scheduled.counters.dependency_stall_cycles, written.counters.dependency_stall_cycles);
}

// The memory accesses of a one-pipeline script's program as the H100's
// scheduling issues them ("|" a barrier; s or g: shared memory or a storage
// buffer; S or L: a store or a load), after checking that the scheduled
// program still computes what the program as written does.
std::string scheduled_access_order(const launch::Script& script) {
  const DeviceModel device = load_device_model("h100");
  ScheduledBackend backend(device);
  const frontend::Program& written = backend.compiled(script, script.pipelines.front());
  const frontend::Program scheduled = schedule_blocks(written, device.latency_cycles);
  const std::vector<InstrClass> classes = pointer_classes(scheduled);
  std::string order;
  for (const frontend::Instruction& in : scheduled.instructions) {
    if (classify_instruction(in) == InstrClass::Barrier) order += "|";
    const InstrClass storage =
        classify_instruction(in) == InstrClass::Global ? storage_class(scheduled, classes, in) : InstrClass::Other;
    if (storage != InstrClass::Shared && storage != InstrClass::Global) continue;  // a builtin's read
    order += storage == InstrClass::Shared ? "s" : "g";
    order += spv::Op(in.opcode) == spv::Op::OpStore ? "S " : "L ";
  }
  launch::SimulatorBackend as_written(launch::SimulatorOptions{32, true, true, 100'000'000, nullptr});
  EXPECT_EQ(launch::run_script(script, backend).buffers.at("buf").bytes,
            launch::run_script(script, as_written).buffers.at("buf").bytes);
  return order;
}

TEST(BlockScheduler, AGlobalLoadPassesAnEarlierSharedStoreButNotAnEarlierGlobalStore) {
  // A tile copy of two words a lane, written load, store, load, store (as
  // APSP's is): the second global load need not wait behind the first shared
  // store, which waits for the first load. The global store and load after
  // the barrier keep their order: they may touch the same word.
  const launch::Script script = one_workgroup("shared uint s[64];",
                                              "void main() { uint i = gl_LocalInvocationID.x;\n"
                                              "  s[i] = buf.v[i]; s[i + 32u] = buf.v[i + 32u]; barrier();\n"
                                              "  buf.v[i] = s[i ^ 1u]; buf.v[i + 64u] = buf.v[(i + 1u) & 31u]; }",
                                              "BUFFER buf DATA_TYPE uint32 SIZE 96 SERIES_FROM 0 INC_BY 1");
  EXPECT_EQ(scheduled_access_order(script), "gL gL sS sS |sL gS gL gS ");
}

TEST(BlockScheduler, ASharedLoadPassesTheStoreBeforeItOfAnotherWordButNoStoreOfAWordItMayRead) {
  // After the barrier, three stores, then a load of a word none of them
  // writes (the same index terms, another offset: APSP's next cell's own
  // word) and a load of a word any of them may have written. The first load
  // is issued above the last store (the H100's driver loads a cell's own
  // word ahead of the cell before's store), not above the two before it;
  // the second stays behind all three.
  const launch::Script script = one_workgroup("shared uint s[128];",
                                              "void main() { uint i = gl_LocalInvocationID.x;\n"
                                              "  s[i + 96u] = 7u * i; barrier();\n"
                                              "  s[i] = i; s[i + 32u] = i + 1u; s[i + 64u] = i + 2u;\n"
                                              "  uint a = s[i + 96u]; uint b = s[(i + 1u) & 31u];\n"
                                              "  buf.v[i] = a * 5u + b; }",
                                              "BUFFER buf DATA_TYPE uint32 SIZE 32 FILL 0");
  EXPECT_EQ(scheduled_access_order(script), "sS |sS sS sL sS sL gS ");
}

}  // namespace
}  // namespace lanelab::timing
