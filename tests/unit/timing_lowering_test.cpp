// Pins what the timing model takes from the vendor compiler and the memory
// system rather than from SPIR-V as written: fused multiply-adds and
// three-input logic ops (instruction_fusion.h), fully unrolled constant loops
// (CompileOptions::unroll_loops; not those rolled_loops.h keeps rolled),
// widened shared loads, L2-resident buffers and the workgroup launch rate
// with the last workgroup's run (timing_model.h), predicated short branches
// (branch_flattening.h, private_vector_reads.h), the known subgroup size
// (subgroup_size_folding.h), loop-invariant code out of its loop
// (loop_invariant_hoisting.h), private vectors in registers, constant arrays
// through the constant cache, the subgroup unit and the integer pipe
// (compute_unit.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include <spirv/unified1/spirv.hpp11>

#include "kernels/workload.h"
#include "sim/devices/device_model.h"
#include "sim/launch/amber_script.h"
#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"
#include "sim/timing/instruction_fusion.h"
#include "sim/timing/timing_model.h"
#include "sim/timing/workgroup_dependence.h"

namespace lanelab::timing {
namespace {

// One pipeline over a uint buffer `buf` of `words` words, `groups` workgroups of `lanes` lanes.
launch::Script script_of(const std::string& body, uint32_t words = 32, uint32_t groups = 1, uint32_t lanes = 32) {
  std::string data;
  for (uint32_t i = 0; i < words; ++i) data += std::to_string(i % 7 + 1) + " ";
  const std::string text =
      "#!amber\nSHADER compute k GLSL\n#version 450\nlayout(local_size_x = " + std::to_string(lanes) + ") in;\n"
      "layout(std430, set = 0, binding = 0) buffer B { uint v[]; } buf;\n" +
      body + "\nEND\nBUFFER buf DATA_TYPE uint32 DATA\n" + data +
      "\nEND\nPIPELINE compute pipe\n  ATTACH k\n  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\nRUN pipe " +
      std::to_string(groups) + " 1 1\n";
  return launch::parse_amber(text, "inline.amber");
}

// Instructions of `op` in the optimized program, and how many of them fuse.
std::pair<size_t, size_t> count_fused(const std::string& body, std::initializer_list<spv::Op> ops) {
  const launch::Script script = script_of(body);
  launch::SimulatorBackend backend(launch::SimulatorOptions{});
  const frontend::Program& program = backend.program(script, script.pipelines.front());
  const std::vector<bool> fused = fuse_instructions(program).fused;
  size_t total = 0, folded = 0;
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    const auto op = static_cast<spv::Op>(program.instructions[i].opcode);
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) continue;
    ++total;
    folded += fused[i];
  }
  return {total, folded};
}

const std::initializer_list<spv::Op> kLogic = {spv::Op::OpBitwiseAnd, spv::Op::OpBitwiseOr, spv::Op::OpBitwiseXor,
                                               spv::Op::OpNot};

TEST(TimingFusion, BlockSwapOverThreeInputsIsOneLogicOp) {
  // The transpose's (a & m) | (b & ~m): four SPIR-V ops, one LOP3.
  const auto [total, folded] = count_fused(
      "void main() { uint i = gl_LocalInvocationID.x; uint a = buf.v[i], b = buf.v[i ^ 1u], m = buf.v[0];\n"
      "  buf.v[i] = (a & m) | (b & ~m); }",
      kLogic);
  EXPECT_EQ(total, 5u);  // with the index's i ^ 1u, which feeds an address
  EXPECT_EQ(folded, 3u);
}

TEST(TimingFusion, FourInputsNeedTwoLogicOps) {
  const auto [total, folded] = count_fused(
      "void main() { uint i = gl_LocalInvocationID.x; uint a = buf.v[i], b = buf.v[i ^ 1u], m = buf.v[0],"
      " n = buf.v[1];\n  buf.v[i] = (a & m) | (b & n); }",
      kLogic);
  EXPECT_EQ(total, 4u);
  EXPECT_EQ(folded, 1u);
}

TEST(TimingFusion, ANotComputedElsewhereIsTheInputItInverts) {
  // Shuffle32's ~m computed outside its loop and read elsewhere too:
  // (a & m) | (b & ~m) still has three inputs, a, b and m, not four.
  const auto [total, folded] = count_fused(
      "void main() { uint i = gl_LocalInvocationID.x; uint a = buf.v[i], b = buf.v[i ^ 1u], m = buf.v[0];\n"
      "  uint n = ~m;\n  buf.v[i] = (a & m) | (b & n); buf.v[i ^ 2u] = n; }",
      {spv::Op::OpBitwiseAnd, spv::Op::OpBitwiseOr});
  EXPECT_EQ(total, 3u);
  EXPECT_EQ(folded, 2u);
}

TEST(TimingFusion, AMultiplyFoldsOnlyIntoItsOnlyUserAnAdd) {
  const std::string head = "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[i], k = buf.v[0];\n";
  // The product xor-ed stays its own instruction.
  EXPECT_EQ(count_fused(head + "  uint y = x * k; buf.v[i] = y + 5u; buf.v[i + 32u] = (x * 3u) ^ k; }", {spv::Op::OpIMul}),
            std::make_pair(size_t{2}, size_t{1}));
  // A product used twice is computed once, on its own.
  EXPECT_EQ(count_fused(head + "  uint y = x * k; buf.v[i] = y + 5u; buf.v[i + 32u] = y; }", {spv::Op::OpIMul}),
            std::make_pair(size_t{1}, size_t{0}));
}

// The shared loads of a kernel and, per load, how many elements it fetches
// (0 for a load folded into an earlier one).
std::vector<uint32_t> shared_load_widths(const std::string& body) {
  const launch::Script script = script_of(body);
  launch::SimulatorBackend backend(launch::SimulatorOptions{});
  const frontend::Program& program = backend.program(script, script.pipelines.front());
  const InstructionFusion fusion = fuse_instructions(program);
  std::vector<uint32_t> widths;
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    const auto& in = program.instructions[i];
    if (static_cast<spv::Op>(in.opcode) != spv::Op::OpLoad || in.components != 1) continue;
    const uint32_t chain_slot = program.operands[in.operand_begin];
    bool shared = false;
    for (const auto& other : program.instructions)
      if (other.result_slot == chain_slot && other.result_id != frontend::kNoId)
        for (const auto& v : program.variables)
          if (v.memory == frontend::MemoryKind::Workgroup && program.id_slot[v.id] == program.operands[other.operand_begin])
            shared = true;
    if (shared) widths.push_back(fusion.fused[i] ? 0 : fusion.elements[i]);
  }
  return widths;
}

TEST(TimingFusion, FourNeighbouringSharedWordsAtAnAlignedIndexAreOneLoad) {
  const std::string prefix =
      "shared uint s[256];\nvoid main() { uint i = gl_LocalInvocationID.x; s[i] = buf.v[i]; s[i + 32u] = i;"
      " s[i + 64u] = i; s[i + 96u] = i; barrier();\n";
  // 4 * i is a multiple of 4 words: one 128-bit load.
  EXPECT_EQ(shared_load_widths(prefix + "  buf.v[i] = s[4u * i] + s[4u * i + 1u] + s[4u * i + 2u] + s[4u * i + 3u]; }"),
            (std::vector<uint32_t>{4, 0, 0, 0}));
  // 2 * i only of 2: two 64-bit loads.
  EXPECT_EQ(shared_load_widths(prefix + "  buf.v[i] = s[2u * i] + s[2u * i + 1u] + s[2u * i + 2u] + s[2u * i + 3u]; }"),
            (std::vector<uint32_t>{2, 0, 2, 0}));
  // i: nothing known, four loads.
  EXPECT_EQ(shared_load_widths(prefix + "  buf.v[i] = s[i] + s[i + 1u] + s[i + 2u] + s[i + 3u]; }"),
            (std::vector<uint32_t>{1, 1, 1, 1}));
}

TEST(TimingFusion, NeighboursThatUnrollingMakesAreWidenedToo) {
  const std::string prefix =
      "shared uint s[128];\nvoid main() { uint i = gl_LocalInvocationID.x; s[i] = i; s[i + 32u] = i; s[i + 64u] = i;"
      " s[i + 96u] = i; barrier();\n";
  const DeviceModel device = load_device_model("h100");
  // Written as four neighbours: one 128-bit load per lane.
  const Prediction written = predict(
      script_of(prefix + "  buf.v[i] = s[4u * i] + s[4u * i + 1u] + s[4u * i + 2u] + s[4u * i + 3u]; }"), device, {});
  EXPECT_EQ(written.counters.shared_load_requests, 1);
  // Neighbours once the constant loop is unrolled: one load as well, as the
  // H100's driver reads APSP's pivot-column words with LDS.128 where it
  // unrolls phase 3's k loop fully (one cell a lane).
  const Prediction unrolled = predict(
      script_of(prefix + "  uint x = 0u;\n  for (uint k = 0u; k < 4u; ++k) x += s[4u * i + k];\n  buf.v[i] = x; }"),
      device, {});
  EXPECT_EQ(unrolled.counters.shared_load_requests, 1);
  EXPECT_EQ(unrolled.counters.branches, 0);  // the loop was unrolled
  // The same neighbours as sums of other terms: (i + 1) * 4 + k is 4 * i + 4 + k.
  const Prediction sums = predict(
      script_of(prefix + "  uint j = i + 1u;\n  buf.v[i] = s[4u * j - 4u] + s[4u * i + 1u] + s[2u * (2u * i + 1u)] + s[3u + 4u * i]; }"),
      device, {});
  EXPECT_EQ(sums.counters.shared_load_requests, 1);
}

TEST(TimingFusion, AnIndexThatDiffersByAConstantFromOneBeforeIsAnImmediateOffset) {
  // (j + 2) * 5 + i and j * 5 + i are (j + 1) * 5 + i plus 5 and less 5.
  const std::string body =
      "void main() { uint i = gl_LocalInvocationID.x; uint j = buf.v[0];\n"
      "  buf.v[j * 5u + i] = buf.v[(j + 1u) * 5u + i] + buf.v[(j + 2u) * 5u + i]; }";
  const auto [adds, adds_folded] = count_fused(body, {spv::Op::OpIAdd});
  const auto [muls, muls_folded] = count_fused(body, {spv::Op::OpIMul});
  // The first index read, (j + 1) * 5 + i, issues its add and a multiply-add
  // (the multiply folded); the others issue nothing, each an immediate
  // offset from it. The sixth add sums the two words loaded.
  EXPECT_EQ(adds, 6u);
  EXPECT_EQ(adds_folded, 3u);
  EXPECT_EQ(muls, 3u);
  EXPECT_EQ(muls_folded, 3u);
}

TEST(TimingFusion, TheSameSharedElementAgainIsNotLoadedAgain) {
  const std::string prefix =
      "shared uint s[64];\nvoid main() { uint i = gl_LocalInvocationID.x; s[i] = i; barrier();\n";
  // A global store in between does not touch shared memory.
  EXPECT_EQ(shared_load_widths(prefix + "  uint a = s[i ^ 5u]; buf.v[i] = a; buf.v[i + 32u] = s[i ^ 5u] * 3u; }"),
            (std::vector<uint32_t>{1, 0}));
  // A shared store in between may have changed it.
  EXPECT_EQ(shared_load_widths(prefix + "  uint a = s[i ^ 5u]; s[i] = a; buf.v[i] = s[i ^ 5u] * 3u; }"),
            (std::vector<uint32_t>{1, 1}));
  // So may one to another shared array, as the H100's driver has it: APSP
  // phase 2 loads tile_b[row][k] again after each cell's store to tile_a
  // (validate/data/sass/driver-2026-11-26/apsp-32-16x16/phase2.sass).
  EXPECT_EQ(shared_load_widths("shared uint s[64];\nshared uint t[64];\nvoid main() { uint i = gl_LocalInvocationID.x;"
                               " s[i] = i; t[i] = i; barrier();\n  uint a = s[i ^ 5u]; t[i] = a;"
                               " buf.v[i] = s[i ^ 5u] * 3u + t[i ^ 1u]; }"),
            (std::vector<uint32_t>{1, 1, 1}));
}

TEST(TimingFusion, AStoreBetweenNeighbouringLoadsKeepsThemApart) {
  EXPECT_EQ(shared_load_widths("shared uint s[256];\nvoid main() { uint i = gl_LocalInvocationID.x; s[4u * i] = i;"
                               " s[4u * i + 1u] = i; barrier();\n  uint a = s[4u * i]; s[4u * (i ^ 1u)] = a;"
                               " buf.v[i] = a + s[4u * i + 1u]; }"),
            (std::vector<uint32_t>{1, 1}));
}

TEST(TimingFusion, ADivisionIssuesAsItsDivisorNeedsAndABarrierAsTheDevicePadsIt) {
  const launch::Script script =
      script_of("void main() { uint i = gl_LocalInvocationID.x; uint d = buf.v[0]; int j = int(buf.v[1]);\n"
                "  barrier(); buf.v[i] = i % d + i / 3u + i / 8u + uint(j / 4); }");
  launch::SimulatorBackend backend(launch::SimulatorOptions{});
  const frontend::Program& program = backend.program(script, script.pipelines.front());
  CompilerTraits traits;
  traits.integer_divide_instructions = 16;
  traits.barrier_instructions = load_device_model("h100").barrier_instructions;
  const InstructionFusion f = fuse_instructions(program, traits);
  std::vector<std::pair<spv::Op, uint32_t>> multiple;
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    const auto op = static_cast<spv::Op>(program.instructions[i].opcode);
    if (op == spv::Op::OpUDiv || op == spv::Op::OpUMod || op == spv::Op::OpSDiv || op == spv::Op::OpControlBarrier)
      multiple.emplace_back(op, f.issues[i]);
    else
      EXPECT_EQ(f.issues[i], 1u) << "instruction " << i;
  }
  std::sort(multiple.begin(), multiple.end());
  // A run-time divisor: the device's sequence; 3: multiply-high and shift;
  // unsigned by 8: a shift; signed by 4: a shift with a sign correction. The
  // barrier: the NVIDIA driver's BAR.SYNC and the NOP after it.
  const std::vector<std::pair<spv::Op, uint32_t>> expected = {{spv::Op::OpUDiv, 1},
                                                              {spv::Op::OpUDiv, 2},
                                                              {spv::Op::OpSDiv, 2},
                                                              {spv::Op::OpUMod, 16},
                                                              {spv::Op::OpControlBarrier, 2}};
  EXPECT_EQ(multiple, expected);  // in opcode order, as sorted
  // Without the device's counts the remainder and the barrier are one instruction each.
  const std::vector<uint8_t> as_one = fuse_instructions(program).issues;
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    const auto op = static_cast<spv::Op>(program.instructions[i].opcode);
    if (op == spv::Op::OpUMod || op == spv::Op::OpControlBarrier) {
      EXPECT_EQ(as_one[i], 1u);
    }
  }
}

TEST(TimingDivision, AReductionWithARuntimeModuloTakesLongerOnADeviceWithoutADivider) {
  const launch::Script script =
      script_of("void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[i], d = buf.v[0] + 1u;\n"
                "  for (uint k = 0u; k < 64u; ++k) x = x % d + i;\n  buf.v[i] = x; }");
  DeviceModel one_instruction = load_device_model("h100");
  one_instruction.integer_divide_instructions = 1;
  DeviceModel sequence = one_instruction;
  sequence.integer_divide_instructions = 16;
  const Prediction fast = predict(script, one_instruction, {});
  const Prediction slow = predict(script, sequence, {});
  // 64 remainders, 15 more issues each.
  EXPECT_EQ(slow.counters.instructions - fast.counters.instructions, 64.0 * 15);
  EXPECT_GT(slow.compute_seconds, fast.compute_seconds);
}

TEST(TimingDivision, ARuntimeRemaindersStepsShareTheIntegerAndFloatPipes) {
  // 8 subgroups a SIMD, each a remainder a trip of a loop that a barrier
  // keeps rolled (reduce0_interleaved_divergent's): the SIMD's issue binds.
  // The driver's remainder mixes IMAD and FMUL (the float pipe) with ISETP,
  // SEL and IADD3 (the integer pipe), so its 20 steps take about 20 cycles
  // a subgroup (and the last one's chain of latencies before the barrier:
  // 1.32 cycles a step here), where on one pipe at 16 lanes they would take
  // 40 (2.18).
  const launch::Script script =
      script_of("void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[i % 32u], d = buf.v[0] + 1u;\n"
                "  for (uint k = 0u; k < 64u; ++k) { x = x % d + i; barrier(); }\n  buf.v[i % 32u] = x; }",
                32, 1, 1024);
  DeviceModel one_instruction = load_device_model("h100");
  ASSERT_EQ(one_instruction.int_lanes_per_simd * 2, one_instruction.alu_lanes_per_simd);
  one_instruction.integer_divide_instructions = 1;
  DeviceModel sequence = one_instruction;
  sequence.integer_divide_instructions = 20;
  const double extra_cycles = (predict(script, sequence, {}).compute_seconds -
                               predict(script, one_instruction, {}).compute_seconds) *
                              one_instruction.clock_mhz * 1e6;
  const double per_step = extra_cycles / (64.0 * 8 * 19);  // a remainder's 19 extra steps, 8 subgroups
  EXPECT_GT(per_step, 0.8);
  EXPECT_LT(per_step, 1.6);
}

TEST(TimingUnroll, ConstantLoopsIssueNoLoopBookkeeping) {
  const launch::Script script = script_of(
      "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[i];\n"
      "  for (uint k = 0u; k < 16u; ++k) x = (x ^ k) * 2654435761u;\n  buf.v[i] = x; }");
  const DeviceModel device = load_device_model("h100");
  TimingOptions rolled;
  rolled.unroll_loops = false;
  const Prediction as_written = predict(script, device, rolled);
  const Prediction unrolled = predict(script, device, {});
  // 16 trips of xor + multiply either way; the rolled loop adds its
  // increment, compare and branches on every trip.
  EXPECT_GE(as_written.counters.branches, 16);
  EXPECT_EQ(unrolled.counters.branches, 0);
  EXPECT_GE(as_written.counters.instructions, unrolled.counters.instructions + 16 * 3);
  EXPECT_GE(unrolled.counters.instructions, 32);
}

TEST(TimingUnroll, ALoopWithABarrierBehindABranchStaysRolled) {
  // HybridShuffle32's shape: shared-memory rounds under a branch on a
  // constant table, the other rounds without a barrier.
  const auto branches_of = [](const std::string& round) {
    const launch::Script script = script_of(
        "shared uint s[32];\nconst uint shifts[4] = uint[4](16u, 8u, 2u, 1u);\n"
        "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[i];\n"
        "  for (int k = 0; k < 4; ++k) { uint d = shifts[k];\n" + round + "  }\n  buf.v[i] = x; }");
    return predict(script, load_device_model("h100"), {}).counters.branches;
  };
  EXPECT_GE(branches_of("    if (d >= 8u) { s[i] = x; barrier(); x += s[i ^ d]; barrier(); } else { x = x * d + 1u; }\n"),
            4);
  // The same rounds with the barriers on every trip: unrolled, the branch folded away.
  EXPECT_EQ(branches_of("    s[i] = x; barrier(); x += s[i ^ d]; barrier();\n"), 0);
}

TEST(TimingUnroll, ALongTileCopyKeepsItsRowLoopRolled) {
  // APSP's tile copy: rows of 4 cells, a buffer load and a shared store
  // each. The H100 driver unrolls 52 such accesses a lane and keeps the row
  // loop of 56 rolled (rolled_loops.h): six rows make 48, seven 56.
  const auto counters_of = [](const std::string& rows_loop) {
    const launch::Script script = script_of(
        "shared uint tile[32];\nvoid main() { uint i = gl_LocalInvocationID.x; uint s = 0u;\n  " + rows_loop +
        " for (uint b = 0u; b < 4u; ++b) { tile[(a * 4u + b + i) % 32u] = buf.v[(a * 4u + b + i) % 32u]; }\n"
        "  barrier(); buf.v[i] = tile[31u - i]; }");
    return predict(script, load_device_model("h100"), {}).counters;
  };
  const TimingCounters six_rows = counters_of("for (uint a = 0u; a < 6u; ++a)");
  EXPECT_EQ(six_rows.global_load_requests, 24);
  EXPECT_EQ(six_rows.branches, 0);
  // Seven rows: the row loop's seven trips branch, each row's four loads still together.
  for (const char* seven : {"for (uint a = 0u; a < 7u; ++a)", "for (int a = 6; a >= 0; a--)", "for (uint a = 0u; a <= 6u; a++)"}) {
    const TimingCounters seven_rows = counters_of(seven);
    EXPECT_EQ(seven_rows.global_load_requests, 28) << seven;
    EXPECT_GE(seven_rows.branches, 7) << seven;
    EXPECT_LE(seven_rows.branches, 8) << seven;
  }
}

TEST(TimingUnroll, SharedLoadsDoNotKeepALoopRolled) {
  // A write-back of 40 cells: 40 shared loads and 40 buffer stores a lane, unrolled.
  const launch::Script script = script_of(
      "shared uint tile[64];\nvoid main() { uint i = gl_LocalInvocationID.x; tile[i] = i; tile[i + 32u] = i;\n"
      "  barrier(); for (uint c = 0u; c < 40u; ++c) buf.v[(c + i) % 64u] = tile[(c * 3u + i) % 64u]; }", 64);
  const TimingCounters counters = predict(script, load_device_model("h100"), {}).counters;
  EXPECT_EQ(counters.global_store_requests, 40);
  EXPECT_EQ(counters.branches, 0);
}

TEST(TimingUnroll, ALoopWithABarrierOnEveryTripStaysRolledBeyondFiveTrips) {
  // APSP's phases 1 and 2: a step of four shared stores and a barrier a
  // trip. The driver unrolls the Threadgroup transposes' 5 rounds and keeps
  // APSP's 8 to 78 k steps rolled (rolled_loops.h).
  const auto branches_of = [](uint32_t trips) {
    const launch::Script script = script_of(
        "shared uint s[128];\nvoid main() { uint i = gl_LocalInvocationID.x; s[i] = i;\n"
        "  for (uint k = 0u; k < " + std::to_string(trips) + "u; ++k) { barrier();\n"
        "    for (uint c = 0u; c < 4u; ++c) s[(i + k * 4u + c) % 128u] = k;\n"
        "    barrier(); }\n  buf.v[i] = s[i]; }");
    return predict(script, load_device_model("h100"), {}).counters.branches;
  };
  EXPECT_EQ(branches_of(5), 0);
  // Rolled: a branch a trip (and the one that leaves), each trip's four stores unrolled.
  EXPECT_GE(branches_of(8), 8);
  EXPECT_LE(branches_of(8), 9);
  EXPECT_GE(branches_of(16), 16);
  EXPECT_LE(branches_of(16), 17);
}

TEST(TimingUnroll, ANestOfCellsWithAPredicatedIfElseKeepsItsRowLoopRolled) {
  // APSP's phase 2 between its barriers: rows of cells, each cell an
  // if/else whose sides read shared memory, then a store where the word
  // shrinks. The driver keeps the row loop rolled at 4x4 cells, unrolls it
  // at 8x2 and 3x3, and unrolls phase 1's 4x4 cells, which have no such
  // if/else (rolled_loops.h).
  const auto branches_of = [](uint32_t rows, uint32_t columns, bool if_else) {
    const std::string cell = if_else ? "if (row) v = b[c + k] + a[k]; else v = a[c + k] + b[k];" : "v = a[c + k] + a[k];";
    const launch::Script script = script_of(
        "shared uint a[72];\nshared uint b[72];\n"
        "void main() { uint i = gl_LocalInvocationID.x; a[i] = buf.v[i]; b[i] = buf.v[i ^ 3u];\n"
        "  bool row = buf.v[0] == 1u;\n  for (uint k = 0u; k < 8u; ++k) { barrier();\n"
        "    for (uint y = 0u; y < " + std::to_string(rows) + "u; ++y) for (uint x = 0u; x < " +
        std::to_string(columns) + "u; ++x) {\n"
        "      uint c = (y * 8u + x + i) & 63u; uint v; " + cell + " if (v < a[c]) a[c] = v; }\n"
        "    barrier(); }\n  buf.v[i] = a[i]; }");
    return predict(script, load_device_model("h100"), {}).counters.branches;
  };
  // The k loop's 8 trips stay rolled either way: a branch a trip.
  EXPECT_LE(branches_of(8, 2, true), 9);
  EXPECT_LE(branches_of(3, 3, true), 9);
  EXPECT_LE(branches_of(4, 4, false), 9);
  // Rolled rows: a branch a row of each trip as well.
  EXPECT_GE(branches_of(4, 4, true), 8 + 8 * 4);
}

// APSP's phase 3 in small: a lane's rows x columns cells accumulate over
// `steps` k steps (at most 64), each step a pivot-column word for each row of
// cells (neighbours from step to step) and a pivot-row word for each column.
TimingCounters cells_over_steps(uint32_t rows, uint32_t columns, uint32_t steps = 32) {
  const std::string r = std::to_string(rows) + "u", c = std::to_string(columns) + "u",
                    k = std::to_string(steps) + "u";
  return predict(script_of(
      "shared uint pivot_column[64 * " + k + "];\nshared uint pivot_row[" + k + " * 64];\n"
      "void main() { uint i = gl_LocalInvocationID.x;\n"
      "  for (uint w = 0u; w < 2u * " + k + "; ++w) { pivot_column[w * 32u + i] = w ^ i; pivot_row[w * 32u + i] = w + i; }\n"
      "  barrier(); uint acc[" + std::to_string(rows * columns) + "];\n"
      "  for (uint a = 0u; a < " + r + "; ++a) for (uint b = 0u; b < " + c + "; ++b) acc[a * " + c + " + b] = buf.v[(a + b + i) % 32u];\n"
      "  for (uint k = 0u; k < " + k + "; ++k)\n"
      "    for (uint a = 0u; a < " + r + "; ++a) { uint via = pivot_column[(i + a * 32u) * " + k + " + k];\n"
      "      for (uint b = 0u; b < " + c + "; ++b) acc[a * " + c + " + b] = min(acc[a * " + c + " + b], via + pivot_row[k * 64u + i + b * 32u]); }\n"
      "  uint m = 0u; for (uint a = 0u; a < " + r + "; ++a) for (uint b = 0u; b < " + c + "; ++b) m ^= acc[a * " + c + " + b];\n"
      "  buf.v[i] = m; }"), load_device_model("h100"), {}).counters;
}

TEST(TimingUnroll, ALoopOfManyAccumulatorsIsKeptInTripsOfSteps) {
  // One cell, 32 updates: unrolled fully, as the driver unrolls APSP's
  // phase 3 at one cell a lane; the pivot-column words 4 to a load.
  const TimingCounters one = cells_over_steps(1, 1);
  EXPECT_EQ(one.shared_load_requests, 32 / 4 + 32);
  // 2x2 cells, 128 updates: trips of 10 steps (at most 75 updates and 14
  // steps, at most 2 over: rolled_loops.h), then 2 steps as written. A trip
  // reads a row's 10 pivot-column words 2 to a load (the counter is a
  // multiple of 10) and its 2 columns' pivot-row words one by one; the 2
  // steps left read 4 words each.
  const TimingCounters four = cells_over_steps(2, 2);
  EXPECT_EQ(four.shared_load_requests, 3 * (2 * 10 / 2 + 2 * 10) + 2 * 4);
  // A branch each trip and each step left, and the loop's exits.
  EXPECT_GE(four.branches, one.branches + 3 + 2);
  EXPECT_LE(four.branches, one.branches + 3 + 2 + 2);
}

TEST(TimingUnroll, ATripLeavesAtMostTwoStepsOver) {
  // 2x2 cells over 64 steps: trips of 9 steps (7 trips and 1 step over),
  // as the H100's driver keeps block 64 with 32x32 threads, not 10 (4 over).
  // Nine is odd, so no two steps' pivot-column words are neighbours at an
  // aligned counter: every step reads its 2 rows' and 2 columns' words one
  // by one, where trips of 10 would read each row's words 2 to a load.
  const TimingCounters four = cells_over_steps(2, 2, 64);
  EXPECT_EQ(four.shared_load_requests, 64 * 4);
}

TEST(TimingUnroll, ElementsAtAnIndexTheCounterChangesAreNoAccumulators) {
  // 64 steps over a private array of 4, reading shared memory (which keeps
  // no loop rolled): elements at a and a + 2 (a < 2, an inner loop) are the
  // same four each step, 256 updates, kept in trips; at k % 4 and (k + 1) %
  // 4 they change from step to step, and the loop is unrolled fully (its
  // indices then constants, the array registers).
  const auto branches_of = [](const std::string& first, const std::string& second) {
    return predict(script_of(
        "shared uint s[32];\nvoid main() { uint i = gl_LocalInvocationID.x; s[i] = buf.v[i]; barrier();\n"
        "  uint acc[4] = uint[4](i, i + 1u, i + 2u, i + 3u);\n"
        "  for (uint k = 0u; k < 64u; ++k) for (uint a = 0u; a < 2u; ++a) {\n"
        "    acc[" + first + "] = min(acc[" + first + "], s[(k + a + i) % 32u]);\n"
        "    acc[" + second + "] = max(acc[" + second + "], s[(k * 3u + a + i) % 32u]); }\n"
        "  buf.v[i] = acc[0] ^ acc[1] ^ acc[2] ^ acc[3]; }"), load_device_model("h100"), {}).counters.branches;
  };
  EXPECT_GE(branches_of("a", "a + 2u"), 64 / 10);  // trips of at most 10 steps
  EXPECT_EQ(branches_of("k % 4u", "(k + 1u) % 4u"), 0);
}

// How many cycles longer the kernel runs when a local-memory load takes
// 140 cycles rather than 40.
double cycles_with_local_latency_raised(const std::string& body) {
  const launch::Script script = script_of(body);
  DeviceModel device = load_device_model("h100");
  device.latency_cycles.local = 40;
  const Prediction near = predict(script, device, {});
  device.latency_cycles.local = 140;
  const Prediction far = predict(script, device, {});
  return (far.compute_seconds - near.compute_seconds) * device.clock_mhz * 1e6;
}

TEST(TimingMemory, APrivateArrayReadByARunTimeIndexWaitsTheLocalMemoryLatency) {
  // 64 dependent loads from a private array indexed by the value just
  // loaded: the array stays in (local) memory, each load waits for the last.
  const double more = cycles_with_local_latency_raised(
      "void main() { uint i = gl_LocalInvocationID.x; uint t[64];\n"
      "  for (uint k = 0u; k < 64u; ++k) t[k] = (k + buf.v[0]) % 64u;\n"
      "  uint x = i;\n  for (uint k = 0u; k < 64u; ++k) x = t[x];\n  buf.v[i] = x; }");
  // 100 more cycles on each of the 64 loads of the chain.
  EXPECT_NEAR(more, 64 * 100, 64 * 2);
}

TEST(TimingMemory, BuffersThatFitInL2AreServedAtL2Bandwidth) {
  // A streaming copy of 64 Ki words, 2048 workgroups: bandwidth-bound.
  const launch::Script script = script_of(
      "void main() { uint i = gl_GlobalInvocationID.x; buf.v[i] = buf.v[i] + 1u; }", 65536, 2048);
  DeviceModel device = load_device_model("h100");
  device.l2_bandwidth_gbps = 4 * device.dram_bandwidth_gbps;
  const Prediction in_l2 = predict(script, device, {});
  device.l2_bytes = 1024;  // the same buffer no longer fits
  const Prediction beyond = predict(script, device, {});
  EXPECT_NEAR(beyond.memory_bound_seconds / in_l2.memory_bound_seconds, 4, 1e-9);
  EXPECT_TRUE(in_l2.kinds.front().l2_resident);
  EXPECT_FALSE(beyond.kinds.front().l2_resident);
}

// One workgroup chases 64 dependent loads through its 64-word buffer.
launch::Script dependent_load_chase() {
  return script_of(
      "void main() { uint x = gl_LocalInvocationID.x;\n"
      "  for (uint k = 0u; k < 64u; ++k) x = buf.v[x & 63u];\n  buf.v[gl_LocalInvocationID.x] = x; }", 64);
}

TEST(TimingMemory, ALoadBeyondL2WaitsDramsLatency) {
  const launch::Script script = dependent_load_chase();
  const auto cycles = [&](uint64_t l2_bytes, uint32_t dram) {
    DeviceModel device = load_device_model("h100");
    device.l2_bytes = l2_bytes;
    device.latency_cycles.dram = dram;
    return predict(script, device, {}).compute_seconds * device.clock_mhz * 1e6;
  };
  const uint32_t global = load_device_model("h100").latency_cycles.global;
  // Buffers in L2: an L2 hit each, whatever DRAM's latency.
  EXPECT_NEAR(cycles(1 << 20, global + 500), cycles(1 << 20, global), 1);
  // Beyond L2: 500 cycles more on each of the 64 loads and on the store the
  // workgroup waits for before it retires.
  EXPECT_NEAR(cycles(64, global + 500) - cycles(64, global), 65 * 500, 65 * 2);
}

TEST(TimingMemory, DramsRoundTripGrowsAsItsBandwidthFills) {
  // Beyond an L2 of 64 bytes: 16384 workgroups each add 1 to their words
  // (every compute unit keeps DRAM busy), and one workgroup chasing 64 loads.
  const launch::Script streaming =
      script_of("void main() { uint i = gl_GlobalInvocationID.x; buf.v[i] = buf.v[i] + 1u; }", 32 * 16384, 16384);
  const launch::Script chase = dependent_load_chase();
  const auto seconds = [](const launch::Script& script, double queue_cycles) {
    DeviceModel device = load_device_model("h100");
    device.l2_bytes = 64;
    device.dram_queue_cycles = queue_cycles;
    // Every workgroup handed out at once: the launcher's pace would bound
    // the streaming grid before its bandwidth does.
    device.workgroup_launch_ns = 0;
    return predict(script, device, {}).compute_seconds;
  };
  EXPECT_GT(seconds(streaming, 300), 1.2 * seconds(streaming, 0));
  // One compute unit of 132 busy: the device's bandwidth stays idle.
  EXPECT_NEAR(seconds(chase, 300), seconds(chase, 0), 0.01 * seconds(chase, 0));
}

TEST(TimingMemory, WhatADispatchBeyondL2ReadsAgainComesFromL2) {
  // 4096 workgroups each read the same 32 words 16 times (APSP's pivot
  // tiles) and write a word of their own: 8 MiB read from a 512 KiB buffer.
  // Beyond an L2 of 64 KiB, the words every workgroup reads move at L2's
  // bandwidth; the words written cross DRAM once.
  const launch::Script script = script_of(
      "void main() { uint i = gl_GlobalInvocationID.x; uint x = 0u;\n"
      "  for (uint k = 0u; k < 16u; ++k) x += buf.v[(gl_LocalInvocationID.x + k) & 31u];\n"
      "  buf.v[i + 32u] = x; }", 32 * 4096 + 32, 4096);
  DeviceModel device = load_device_model("h100");
  device.l2_bytes = 64 * 1024;
  const Prediction p = predict(script, device, {});
  EXPECT_FALSE(p.kinds.front().l2_resident);
  const double reads = p.counters.global_load_transactions * device.global_sector_bytes;
  const double writes = p.counters.global_store_transactions * device.global_sector_bytes;
  const double footprint = (32.0 * 4096 + 32) * 4;
  EXPECT_NEAR(reads, 16.0 * 4096 * 128, 1);
  EXPECT_LT(writes, footprint);
  const double expected = (writes / device.dram_bandwidth_gbps + reads / device.l2_bandwidth_gbps) * 1e-9;
  EXPECT_NEAR(p.memory_bound_seconds, expected, expected * 0.01);
  // Everything at DRAM's bandwidth would take twice as long and more.
  EXPECT_LT(2 * p.memory_bound_seconds, (reads + writes) / device.dram_bandwidth_gbps * 1e-9);
}

// The dependence mask of each global load, by the source line it is on.
std::map<int, uint8_t> load_dependence_by_line(const launch::Script& script) {
  launch::SimulatorBackend backend(launch::SimulatorOptions{});
  const frontend::Program& program = backend.program(script, script.pipelines.front());
  const std::vector<uint8_t> masks = global_address_dependence(program);
  std::map<int, uint8_t> by_line;
  for (size_t i = 0; i < program.instructions.size(); ++i)
    if (spv::Op(program.instructions[i].opcode) == spv::Op::OpLoad && masks[i])
      by_line[program.instructions[i].line] |= masks[i];
  return by_line;
}

TEST(TimingMemory, ALoadsAddressDependsOnTheWorkgroupIdDimensionsItsIndexIsComputedFrom) {
  // One load a line from line 8 on (the shader's lines are counted in the
  // script, after its first two and the shader's #version, layout and buffer).
  const launch::Script script = script_of(
      "shared uint relay[32];\n"
      "void main() { uint l = gl_LocalInvocationID.x; uint s = 0u; relay[l] = gl_WorkGroupID.y; barrier();\n"
      "  s += buf.v[gl_WorkGroupID.x];\n"
      "  s += buf.v[gl_WorkGroupID.y * 32u + l];\n"
      "  s += buf.v[gl_GlobalInvocationID.x + gl_WorkGroupID.y];\n"
      "  s += buf.v[buf.v[l]];\n"
      "  s += buf.v[relay[l ^ 1u] + 1u];\n"
      "  for (uint k = 0u; k < 4u; ++k) s += buf.v[k * 8u + gl_WorkGroupID.z];\n"
      "  s += buf.v[l + 5u];\n"
      "  buf.v[gl_GlobalInvocationID.x] = s; }", 4096);
  const std::map<int, uint8_t> masks = load_dependence_by_line(script);
  EXPECT_EQ(masks.at(8), kDependsOnX);
  EXPECT_EQ(masks.at(9), kDependsOnY);
  EXPECT_EQ(masks.at(10), kDependsOnX | kDependsOnY);
  EXPECT_EQ(masks.at(11) & kDependsOnMemory, kDependsOnMemory);  // a word it read
  EXPECT_EQ(masks.at(12), kDependsOnY);                         // what its shared memory holds
  EXPECT_EQ(masks.at(13), kDependsOnZ);
  EXPECT_EQ(masks.count(14), 0u);  // the lane's index only: the same words in every workgroup
  // Over a grid of 4 x 4 workgroups, line 8 reads what each column of
  // workgroups reads, line 10 each workgroup's own words.
  const uint8_t grid = kDependsOnX | kDependsOnY;
  EXPECT_TRUE(read_by_other_workgroups(masks.at(8), grid));
  EXPECT_TRUE(read_by_other_workgroups(masks.at(12), grid));
  EXPECT_FALSE(read_by_other_workgroups(masks.at(10), grid));
  EXPECT_FALSE(read_by_other_workgroups(masks.at(11), grid));
  // Over a grid of one column (1 x 4), line 9 reads each workgroup's own.
  EXPECT_FALSE(read_by_other_workgroups(masks.at(9), kDependsOnY));
  EXPECT_FALSE(read_by_other_workgroups(0, 0));  // a lone workgroup
}

TEST(TimingMemory, BeyondL2WhatTheGridsOtherWorkgroupsReadTooComesAtL2sRoundTrip) {
  // APSP's phase 3 in small: 16 x 16 workgroups each wait on 16 loads, one
  // after another (each sum decides whether the loop goes on), of words
  // every workgroup of its column reads too (by gl_WorkGroupID.x) or of its
  // own (by x and y).
  const auto script = [](const std::string& strip) {
    const std::string text =
        "#!amber\nSHADER compute k GLSL\n#version 450\nlayout(local_size_x = 32) in;\n"
        "layout(std430, set = 0, binding = 0) buffer B { uint v[]; } buf;\n"
        "void main() { uint own = gl_WorkGroupID.y * 16u + gl_WorkGroupID.x; uint s = 0u;\n"
        "  for (uint k = 0u; k < 16u; ++k) {\n"
        "    s += buf.v[(" + strip + ") * 512u + k * 32u + gl_LocalInvocationID.x];\n"
        "    if (s == 12345u) break; }\n"
        "  buf.v[own * 32u + gl_LocalInvocationID.x] = s; }\nEND\n"
        "BUFFER buf DATA_TYPE uint32 SIZE 131072 FILL 1\n"
        "PIPELINE compute pipe\n  ATTACH k\n  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n"
        "RUN pipe 16 16 1\n";
    return launch::parse_amber(text, "inline.amber");
  };
  const launch::Script column = script("gl_WorkGroupID.x"), own = script("own");
  const auto cycles = [](const launch::Script& s, uint64_t l2_bytes) {
    DeviceModel device = load_device_model("h100");
    device.l2_bytes = l2_bytes;
    device.l2_retention.clear();
    device.latency_cycles.dram = device.latency_cycles.global + 500;
    const Prediction p = predict(s, device, {});
    EXPECT_EQ(p.kinds.front().l2_resident, l2_bytes > 1024);
    return p.compute_seconds * device.clock_mhz * 1e6;
  };
  // Beyond an L2 of 64 bytes the column's strips still come at L2's round
  // trip, as within one of 1 MiB, and only the store the workgroup waits for
  // before it retires takes DRAM's, 500 cycles longer; each workgroup's own
  // words take DRAM's, all 16 loads.
  const double column_beyond = cycles(column, 64) - cycles(column, 1 << 20);
  EXPECT_GT(column_beyond, 0.9 * 500);
  EXPECT_LT(column_beyond, 1.1 * 500);
  EXPECT_GT(cycles(own, 64) - cycles(own, 1 << 20), 17 * 0.9 * 500);
}

TEST(TimingMemory, ABurstFromDramTakesUpToL2sRateWhereDramIsLittleBusy) {
  // APSP's phase 3 of block 78 in small: 24 x 24 workgroups, one an SM (40
  // KiB of shared memory), beyond an L2 of 64 bytes, each read 16 KiB of
  // their own and as much of a strip every workgroup of their column reads,
  // then work. DRAM is busy a small share of the dispatch, so a workgroup's
  // burst moves at up to L2's rate, whatever DRAM's bandwidth; at its share
  // of DRAM's it would wait on the port as long as the work takes.
  const std::string text =
      "#!amber\nSHADER compute k GLSL\n#version 450\nlayout(local_size_x = 256) in;\n"
      "layout(std430, set = 0, binding = 0) buffer B { uint v[]; } buf;\nshared uint pad[10240];\n"
      "void main() { uint l = gl_LocalInvocationID.x; uint own = (gl_WorkGroupID.y * 24u + gl_WorkGroupID.x) * 4096u;\n"
      "  uint strip = gl_WorkGroupID.x * 4096u + 2359296u; uint s = 0u;\n"
      "  for (uint i = 0u; i < 16u; ++i) s += buf.v[own + i * 256u + l] + buf.v[strip + i * 256u + l];\n"
      "  for (uint k = 0u; k < 200u; ++k) s = s * 3u + k;\n"
      "  pad[l * 40u] = s; barrier(); buf.v[own + l] = pad[(l ^ 1u) * 40u]; }\nEND\n"
      "BUFFER buf DATA_TYPE uint32 SIZE 2457600 FILL 1\n"
      "PIPELINE compute pipe\n  ATTACH k\n  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n"
      "RUN pipe 24 24 1\n";
  const launch::Script script = launch::parse_amber(text, "inline.amber");
  // A sampled dispatch runs again with its mix (the block's phase 3 at n =
  // 4096 is 2809 workgroups); this one's 576 are sampled as those are.
  TimingOptions sampled;
  sampled.full_simulation_workgroups = 512;
  const auto seconds = [&](double dram_gbps) {
    DeviceModel device = load_device_model("h100-calibrated");
    device.l2_bytes = 64;
    device.l2_retention.clear();
    device.dram_bandwidth_gbps = dram_gbps;
    const Prediction p = predict(script, device, sampled);
    EXPECT_EQ(p.kinds.front().occupancy.workgroups_per_cu, 1u);
    EXPECT_TRUE(p.kinds.front().sampled);
    return p.compute_seconds;
  };
  EXPECT_NEAR(seconds(3000), seconds(6000), 0.02 * seconds(6000));
}

TEST(TimingMemory, WhereL1HoldsSharedMemoryAGlobalAccesssLinesTakeTheSharedPipesCycles) {
  // Each subgroup of 8 x 132 workgroups reads 16 lines of a buffer and 16
  // conflict-free shared words a step: 16 wavefronts of the shared-memory
  // pipe a step, and 16 more where the lines pass through it too (the H100:
  // Nsight Compute's L1 data pipe counts both). The pipe binds most of the
  // run, so the second takes nearly half as long again.
  const launch::Script script = script_of(
      "shared uint tile[256];\n"
      "void main() { uint l = gl_LocalInvocationID.x; tile[l] = l; barrier(); uint s = 0u;\n"
      "  for (uint i = 0u; i < 16u; ++i) {\n"
      "    s += buf.v[(l & 15u) * 2048u + i * 32u + (l >> 4u)];\n"
      "    for (uint j = 0u; j < 16u; ++j) s += tile[(l + j * 7u + i) & 255u]; }\n"
      "  buf.v[32768u + gl_GlobalInvocationID.x] = s; }",
      32768 + 1056 * 256, 1056, 256);
  const auto seconds = [&](bool l1_holds_shared_memory) {
    DeviceModel device = load_device_model("h100-calibrated");
    device.l1_holds_shared_memory = l1_holds_shared_memory;
    return predict(script, device, {}).compute_seconds;
  };
  const double apart = seconds(false), together = seconds(true);
  EXPECT_GT(together, 1.3 * apart);  // 1.48 when written
  EXPECT_LT(together, 2.0 * apart);
}

TEST(TimingMemory, ADispatchThatTouchesLittleOfABufferBeyondL2FindsItInL2) {
  // APSP's phase 1 in small: one workgroup chases 64 loads through the first
  // 64 words of a buffer of 64 Ki words (256 KiB). Beyond an L2 of 64 KiB by
  // the buffer's size, within it by the sectors the dispatch moves.
  const launch::Script script = script_of(
      "void main() { uint x = gl_LocalInvocationID.x;\n"
      "  for (uint k = 0u; k < 64u; ++k) x = buf.v[x & 63u];\n  buf.v[gl_LocalInvocationID.x] = x; }", 65536);
  const auto kind = [&](uint64_t l2_bytes) {
    DeviceModel device = load_device_model("h100");
    device.l2_bytes = l2_bytes;
    return predict(script, device, {}).kinds.front();
  };
  const DispatchKindPrediction little = kind(64 * 1024), whole = kind(1 << 20), none = kind(64);
  EXPECT_TRUE(little.l2_resident);
  EXPECT_TRUE(whole.l2_resident);
  EXPECT_NEAR(little.seconds_per_dispatch, whole.seconds_per_dispatch, 1e-12);
  // An L2 smaller than the sectors it moves: each load waits DRAM's round trip.
  EXPECT_FALSE(none.l2_resident);
  const DeviceModel h100 = load_device_model("h100");
  EXPECT_GT(none.seconds_per_dispatch - little.seconds_per_dispatch,
            64 * 0.9 * double(h100.latency_cycles.dram - h100.latency_cycles.global) / (h100.clock_mhz * 1e6));
}

TEST(TimingMemory, WhatTheDispatchBeforeStreamedThroughL2HasEvictedMostOfTheNextOnesBuffers) {
  // The reductions' shape: a first pass of 256 workgroups sums `big` a
  // chunk each and writes its partial as it goes, a second reads the
  // partials back, the sequence measured again and again.
  const std::string text =
      "#!amber\nSHADER compute first GLSL\n#version 450\n#extension GL_KHR_shader_subgroup_shuffle : enable\n"
      "layout(local_size_x = 32) in;\n"
      "layout(std430, binding = 0) buffer B { uint v[]; } big;\n"
      "layout(std430, binding = 1) buffer P { uint v[]; } partials;\n"
      "void main() { uint x = big.v[gl_GlobalInvocationID.x];\n"
      "  for (uint d = 16u; d > 0u; d >>= 1) x += subgroupShuffleXor(x, d);\n"
      "  if (gl_LocalInvocationID.x == 0u) partials.v[gl_WorkGroupID.x] = x; }\nEND\n"
      "SHADER compute second GLSL\n#version 450\nlayout(local_size_x = 32) in;\n"
      "layout(std430, binding = 0) buffer P { uint v[]; } partials;\n"
      "void main() { uint i = gl_LocalInvocationID.x; uint x = i;\n"
      "  for (uint k = 0u; k < 16u; ++k) x = partials.v[x & 255u];\n  partials.v[i] = x; }\nEND\n"
      "BUFFER big DATA_TYPE uint32 SIZE 8192 FILL 1\nBUFFER partials DATA_TYPE uint32 SIZE 256 FILL 0\n"
      "PIPELINE compute p1\n  ATTACH first\n  BIND BUFFER big AS storage DESCRIPTOR_SET 0 BINDING 0\n"
      "  BIND BUFFER partials AS storage DESCRIPTOR_SET 0 BINDING 1\nEND\n"
      "PIPELINE compute p2\n  ATTACH second\n  BIND BUFFER partials AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n"
      "RUN p1 256 1 1\nRUN p2 1 1 1\n";
  const launch::Script script = launch::parse_amber(text, "inline.amber");
  const auto passes = [&](uint64_t l2_bytes, std::vector<DeviceModel::L2RetentionPoint> retention) {
    DeviceModel device = load_device_model("h100");
    device.l2_bytes = l2_bytes;
    device.l2_retention = retention;
    return predict(script, device, {}).kinds;
  };
  // 32 KiB of `big` and 1 KiB of partials, all kept by an L2 of 64 KiB that
  // keeps them all; with one of 16 KiB that keeps 1 KiB of lines and nothing
  // beyond 2, the first pass reads `big` from DRAM and the second finds only
  // the partials written last (1.5 KiB of the 33 KiB the first pass touched).
  const std::vector<DispatchKindPrediction> within = passes(64 * 1024, {{64 * 1024, 1}});
  const std::vector<DispatchKindPrediction> beyond = passes(16 * 1024, {{1024, 1}, {2048, 0}});
  EXPECT_TRUE(within.at(1).l2_resident);
  EXPECT_FALSE(beyond.at(1).l2_resident);
  EXPECT_EQ(beyond.at(0).l2_kept_share, 0);
  EXPECT_NEAR(beyond.at(1).l2_kept_share, 1.5 / 33.0, 0.01);
  // Each of the 16 dependent loads waits DRAM's round trip for that share.
  const InstructionLatencyCycles lat = load_device_model("h100").latency_cycles;
  EXPECT_GT(beyond.at(1).seconds_per_dispatch - within.at(1).seconds_per_dispatch,
            16 * 0.9 * double(lat.dram - lat.global) / (load_device_model("h100").clock_mhz * 1e6));
}

TEST(TimingMemory, TheL1LooksUpAGlobalAccessALineACycle) {
  // One compute unit, 64 workgroups: each lane reads a word from its own
  // 128-byte line (32 lines an access), or words side by side (one line).
  const auto cycles = [](const std::string& index) {
    DeviceModel device = load_device_model("h100");
    device.compute_units = 1;
    const launch::Script script = script_of(
        "void main() { uint i = gl_GlobalInvocationID.x; uint x = 0u;\n"
        "  for (uint k = 0u; k < 16u; ++k) x += buf.v[" + index + "];\n  buf.v[i] = x; }", 32 * 64 * 32, 64);
    return predict(script, device, {}).compute_seconds * device.clock_mhz * 1e6;
  };
  const double spread = cycles("(i * 32u + k) & 65535u"), packed = cycles("(i + k * 2048u) & 65535u");
  // 64 subgroups x 16 accesses x 31 more lines each.
  EXPECT_GT(spread - packed, 64 * 16 * 31 * 0.8);
}

TEST(TimingSampling, AGridOfMostlyIdleWorkgroupsLastsAsLongAsItsBusyOnes) {
  // Every 64th workgroup runs a long dependent chain, the others return at
  // once (APSP's phase 2). 4096 workgroups: predicted from a sample.
  const std::string chain =
      "void main() { uint i = gl_GlobalInvocationID.x; if (gl_WorkGroupID.x % 64u != HEAVY) return;\n"
      "  uint x = buf.v[i]; for (uint k = 0u; k < buf.v[1] + 2000u; ++k) x = x * 2654435761u + k;\n"
      "  buf.v[i] = x; }";
  const DeviceModel device = load_device_model("h100");
  const auto with = [&](const std::string& heavy, uint32_t groups) {
    std::string body = chain;
    body.replace(body.find("HEAVY"), 5, heavy);
    return predict(script_of(body, 32 * groups, groups), device, {});
  };
  // (The loop bound, word 1, is written by no busy workgroup of the grid.)
  const Prediction grid = with("1u", 4096);
  const Prediction one = with("0u", 1);  // a busy workgroup alone
  ASSERT_TRUE(grid.kinds.front().sampled);
  EXPECT_GE(grid.compute_seconds, 0.95 * one.compute_seconds);
  // Two busy workgroups per compute unit's share at most: not much longer.
  EXPECT_LE(grid.compute_seconds, 2.5 * one.compute_seconds);
}

TEST(TimingSampling, BusyWorkgroupsThatShareAComputeUnitTakeTurnsOnIt) {
  // 16384 workgroups, every K-th one runs a long chain of shared-memory
  // loads (one pipe a compute unit), the others return at once. Workgroups
  // go round the compute units (workgroup_distribution.h; one rotation over
  // all, without the H100's SMs 124-131 served apart or its scattering past
  // the first fill of the slots): K = 132 puts the busy ones on one compute
  // unit until its 32 slots are full (the workgroups an SM holds; 128 bytes
  // of shared memory and 1024 reserved would allow 49), then on the next;
  // K = 131 gives each its own. A random sample sees the same mix in both.
  DeviceModel device = load_device_model("h100");
  device.rotation_group_units = device.rotation_group_every = 0;
  device.workgroups_scatter_after_fill = false;
  ASSERT_EQ(device.compute_units, 132u);
  const auto seconds = [&](const std::string& every) {
    const std::string body =
        "shared uint t[32];\nvoid main() { uint i = gl_GlobalInvocationID.x; if (gl_WorkGroupID.x % " + every +
        "u != 1u) return;\n  t[gl_LocalInvocationID.x] = buf.v[i]; barrier(); uint x = gl_LocalInvocationID.x;\n"
        "  for (uint k = 0u; k < buf.v[1] + 400u; ++k) x = t[(x + k) & 31u];\n  buf.v[i] = x; }";
    const Prediction p = predict(script_of(body, 32 * 16384, 16384), device, {});
    EXPECT_TRUE(p.kinds.front().sampled);
    return p.compute_seconds;
  };
  const double together = seconds("132"), apart = seconds("131");
  // Together they queue at the one shared-memory pipe: 32 x 400 loads.
  EXPECT_GT(together * device.clock_mhz * 1e6, 32 * 400);
  EXPECT_GT(together, 1.5 * apart);
}

TEST(TimingLaunch, EachDispatchThatWaitsForTheOneBeforePaysItsWaitWithinItsSpanAndTheGap) {
  DeviceModel device = load_device_model("h100");
  device.dispatch_wait_us = 0.4;
  device.dispatch_gap_us = 1.5;
  device.dispatch_wait_tail = 0;  // every dispatch of the submission holds its wait
  const std::string body = "void main() { uint i = gl_GlobalInvocationID.x; buf.v[i] = buf.v[i] * 3u + 1u; }";
  launch::Script three = script_of(body, 32 * 4, 4);
  const launch::Command run = three.commands.back();
  three.commands.push_back(run);
  three.commands.push_back(run);
  const Prediction one = predict(script_of(body, 32 * 4, 4), device, {});
  const Prediction p = predict(three, device, {});
  ASSERT_EQ(p.dispatches, 3u);
  EXPECT_NEAR(p.gap_seconds, 2 * 1.5e-6, 1e-12);
  EXPECT_NEAR(p.seconds, 3 * one.seconds + 2 * 1.5e-6, 1e-9);
  // The waits are the kind's, within the spans the device's timestamps give
  // its dispatches; the first waits for the repeat before's last, as a lone
  // dispatch does for the one before it.
  ASSERT_EQ(p.kinds.size(), 1u);
  EXPECT_NEAR(p.kinds[0].seconds_per_dispatch, one.seconds, 1e-9);
  EXPECT_NEAR(p.wait_seconds, 3 * 0.4e-6, 1e-12);
  EXPECT_NEAR(one.wait_seconds, 0.4e-6, 1e-12);
  EXPECT_NEAR(one.gap_seconds, 0, 1e-15);
}

TEST(TimingLaunch, ASampledGridOfAFewWavesRunsItsFullestShareAsHandedOut) {
  // Shuffle8 at 16384 matrices: 2048 workgroups of 256 lanes, two waves of
  // 8 an SM, past the grids the model runs whole. A sample's steady state
  // left out the first wave's arrival at the launcher's pace and the last
  // one's run alone: 9% under the whole grid simulated (the device 4.93 us,
  // validate/data/README.md). The fullest compute unit's share, run as
  // handed out, comes within 2% of it.
  const DeviceModel device = load_device_model("h100-calibrated");
  const kernels::Workload& transpose = *kernels::find_workload("transpose");
  const launch::Script script = transpose.build(
      transpose.with_defaults({{"kernel", "Shuffle8"}, {"matrices", "16384"}, {"workgroup_size", "256"}}));
  const Prediction sampled = predict(script, device, {});
  ASSERT_TRUE(sampled.kinds.front().sampled);
  TimingOptions whole_grid;
  whole_grid.full_simulation_workgroups = 4096;
  const Prediction whole = predict(script, device, whole_grid);
  ASSERT_FALSE(whole.kinds.front().sampled);
  EXPECT_NEAR(sampled.seconds, whole.seconds, 0.02 * whole.seconds);
}

TEST(TimingLaunch, WhereWorkgroupsTakeEverySubgroupSlotTheirLoneLastSubgroupsRunOneAfterAnother) {
  // Workgroups of 256 lanes, 8 a compute unit by their subgroups (64 slots)
  // or 7 by shared memory: after a barrier the first subgroup runs a chain
  // alone and stores, and the others leave, or all wait at a second barrier
  // until it has. The device's SM takes no workgroup while one of its own
  // runs such a lone subgroup where no subgroup slot is spare: the
  // store-slots probe, 1107 ns a slot against 641 with the second barrier,
  // 606 against 557 at 7 an SM (validate/data/README.md).
  const DeviceModel device = load_device_model("h100-calibrated");
  const auto seconds = [&](uint32_t shared_words, bool together) {
    const std::string body =
        "shared uint t[" + std::to_string(shared_words) +
        "];\nvoid main() { uint x = gl_LocalInvocationID.x; t[x % " + std::to_string(shared_words) +
        "u] = x; barrier();\n  uint y = t[(x + 1u) % " + std::to_string(shared_words) +
        "u];\n  if (x < 32u) { for (uint k = 0u; k < buf.v[0] + 64u; ++k) y = y * 3u + 1u;\n"
        "    if (y == 7u) buf.v[gl_WorkGroupID.x] = y; }\n" +
        std::string(together ? "  barrier();\n" : "") + "}";
    const Prediction p = predict(script_of(body, 132 * 64, 132 * 64, 256), device, {});
    return p.kinds.front().seconds_per_dispatch;
  };
  const double full_lone = seconds(256, false), full_together = seconds(256, true);
  const double spare_lone = seconds(1792, false), spare_together = seconds(1792, true);
  EXPECT_GT(full_lone, 1.25 * full_together);
  EXPECT_LT(spare_lone, 1.05 * spare_together);
}

TEST(TimingLaunch, TheSubmissionsLastDispatchesHoldNoWait) {
  // The driver's last 29 dispatches of a submission hold no wait; the
  // prediction is of the median of the timed repeats, which run one after
  // another in it.
  DeviceModel device = load_device_model("h100");
  device.dispatch_wait_us = 0.4;
  device.dispatch_wait_tail = 29;
  const std::string body = "void main() { uint i = gl_GlobalInvocationID.x; buf.v[i] = buf.v[i] * 3u + 1u; }";
  const auto waits = [&](size_t length, uint32_t repeats) {
    launch::Script sequence = script_of(body, 32 * 4, 4);
    const launch::Command run = sequence.commands.back();
    for (size_t k = 1; k < length; ++k) sequence.commands.push_back(run);
    TimingOptions options;
    options.timed_repeats = repeats;
    const Prediction p = predict(sequence, device, options);
    EXPECT_EQ(p.dispatches, length);
    return p.wait_seconds / 0.4e-6;
  };
  // A reduction's two passes, 10 repeats: at most 11 dispatches follow either.
  EXPECT_NEAR(waits(2, 10), 0, 1e-9);
  // 8 a repeat: at least 32 follow each in the middle two repeats.
  EXPECT_NEAR(waits(8, 10), 8, 1e-9);
  // 6 a repeat: in the fifth repeat 30 to 35 follow them, all wait; in the
  // sixth 24 to 29, only the first waits. The median is halfway.
  EXPECT_NEAR(waits(6, 10), 3.5, 1e-9);
  // One repeat of 40: the first 11 wait.
  EXPECT_NEAR(waits(40, 1), 11, 1e-9);
}

TEST(TimingLaunch, EachDispatchThatTakesPushConstantsAfterAnotherPaysTheirGapToo) {
  // dispatch_push: the empty kernel's dependent dispatches, push constants
  // set before each (APSP's round), against dispatch_gap's without.
  DeviceModel device = load_device_model("h100");
  device.dispatch_gap_us = 1.5;
  device.push_constant_gap_us = 0.25;
  const kernels::Workload& micro = *kernels::find_workload("micro");
  const auto predicted = [&](const char* bench) {
    return predict(micro.build(micro.with_defaults({{"bench", bench}, {"iterations", "8"}})), device, {});
  };
  const Prediction plain = predicted("dispatch_gap"), pushed = predicted("dispatch_push");
  ASSERT_EQ(pushed.dispatches, 8u);
  EXPECT_NEAR(plain.gap_seconds, 7 * 1.5e-6, 1e-12);
  EXPECT_NEAR(pushed.gap_seconds, 7 * (1.5e-6 + 0.25e-6), 1e-12);
  EXPECT_NEAR(pushed.seconds - plain.seconds, 7 * 0.25e-6, 1e-9);
}

TEST(TimingLaunch, ADispatchWhoseLanesReadItsPushConstantsWaitsForThemOnce) {
  // dispatch_push_read against dispatch_push: the same dependent dispatches
  // and pushes, every lane of the first reading the constants, none of the
  // second (its read sits under a store no lane reaches).
  DeviceModel device = load_device_model("h100");
  device.push_constant_wait_us = 0.75;
  const kernels::Workload& micro = *kernels::find_workload("micro");
  const auto predicted = [&](const char* bench, const char* workgroups) {
    return predict(micro.build(micro.with_defaults(
                       {{"bench", bench}, {"iterations", "8"}, {"workgroups", workgroups}, {"workgroup_size", "256"}})),
                   device, {});
  };
  for (const char* workgroups : {"1", "1024"}) {
    SCOPED_TRACE(workgroups);
    const Prediction unread = predicted("dispatch_push", workgroups), read = predicted("dispatch_push_read", workgroups);
    ASSERT_EQ(read.kinds.size(), 1u);
    // Once a dispatch, however many workgroups read them (and the read's
    // add and compare, a few cycles).
    EXPECT_NEAR(read.kinds[0].seconds_per_dispatch - unread.kinds[0].seconds_per_dispatch, 0.75e-6, 10e-9);
    EXPECT_NEAR(read.overhead_seconds - unread.overhead_seconds, 8 * 0.75e-6, 1e-9);
  }
}

TEST(TimingLaunch, ADispatchWhoseLanesReadAUniformBufferWaitsForItOnce) {
  // empty_uniform_read against empty_uniform_unread: one dispatch, the same
  // buffer bound, every lane of the first reading it, none of the second.
  DeviceModel device = load_device_model("h100");
  device.uniform_buffer_wait_us = 0.75;
  const kernels::Workload& micro = *kernels::find_workload("micro");
  const auto predicted = [&](const char* bench, const char* workgroups) {
    return predict(micro.build(micro.with_defaults({{"bench", bench}, {"workgroups", workgroups}, {"workgroup_size", "256"}})),
                   device, {});
  };
  for (const char* workgroups : {"1", "1024"}) {
    SCOPED_TRACE(workgroups);
    const Prediction unread = predicted("empty_uniform_unread", workgroups),
                     read = predicted("empty_uniform_read", workgroups);
    // Once a dispatch, however many workgroups read it, and the reads then
    // find their lines (the read's add and compare, a few cycles).
    EXPECT_NEAR(read.seconds - unread.seconds, 0.75e-6, 10e-9);
    EXPECT_NEAR(read.overhead_seconds - unread.overhead_seconds, 0.75e-6, 1e-9);
  }
}

TEST(TimingLaunch, ALaunchBoundDispatchEndsWhenItsLastWorkgroupHasRun) {
  DeviceModel device = load_device_model("h100");
  device.workgroup_launch_ns = 50;  // 4096 workgroups: 204.8 us just to launch them
  for (const char* body : {"void main() { uint i = gl_GlobalInvocationID.x; buf.v[i] = i; }",
                           "void main() { uint i = gl_GlobalInvocationID.x; uint x = buf.v[i];\n"
                           "  for (uint k = 0u; k < 64u; ++k) x = x * 2654435761u + k;\n  buf.v[i] = x; }"}) {
    SCOPED_TRACE(body);
    const Prediction grid = predict(script_of(body, 32 * 4096, 4096), device, {});
    const Prediction one = predict(script_of(body, 32, 1), device, {});
    // The last workgroup is launched after 204.8 us and then runs; sampled,
    // the grid takes that run as long as one workgroup's alone.
    ASSERT_TRUE(grid.kinds.front().sampled);
    EXPECT_NEAR(grid.launch_bound_seconds, 4096 * 50e-9 + one.compute_seconds, 1e-12);
    EXPECT_GT(one.compute_seconds, 0);
    EXPECT_GT(grid.launch_bound_seconds, grid.compute_seconds);
    EXPECT_NEAR(grid.seconds, grid.launch_bound_seconds + device.dispatch_overhead_us * 1e-6, 1e-12);
    // Simulated whole (256 workgroups, two per compute unit at most), the last
    // one's run beside the other workgroup of its compute unit.
    const Prediction whole = predict(script_of(body, 32 * 256, 256), device, {});
    ASSERT_FALSE(whole.kinds.front().sampled);
    EXPECT_GE(whole.launch_bound_seconds, 256 * 50e-9 + one.compute_seconds - 1e-12);
    EXPECT_LE(whole.launch_bound_seconds, 256 * 50e-9 + whole.compute_seconds + 1e-12);
  }
}


// A chain of 32 dependent loads in the first subgroup (in `lanes`: every
// subgroup), which waits on memory far longer than it issues; the others
// leave at once.
TEST(TimingLaunch, AWorkgroupThatStoredHoldsItsSlotLonger) {
  // The turnover test's grid, two workgroups an SM in turn: the second waits
  // for the first's store hold where the first stored, not where its store
  // is never taken.
  DeviceModel device = load_device_model("h100");
  device.compute_units = 4;
  const auto body = [](const std::string& condition) {
    return "shared uint pad[10240];\nvoid main() { uint i = gl_GlobalInvocationID.x; pad[i % 10240u] = i; barrier();\n"
           "  uint x = pad[(i + 1u) % 10240u];\n  for (uint k = 0u; k < 256u; ++k) x = x * 2654435761u + k;\n"
           "  if (" + condition + ") buf.v[i] = x; }";
  };
  const auto seconds = [&](const std::string& condition, double hold_ns) {
    device.workgroup_store_hold_ns = hold_ns;
    return predict(script_of(body(condition), 32 * 8, 8), device, {}).compute_seconds;
  };
  EXPECT_NEAR(seconds("x != 1u", 1000) - seconds("x != 1u", 0), 1e-6, 0.01e-6);
  EXPECT_EQ(seconds("x == 1u", 1000), seconds("x == 1u", 0));
}

std::string chain_in(const std::string& lanes) {
  return "void main() { uint i = gl_GlobalInvocationID.x; if (gl_LocalInvocationID.x >= " + lanes +
         ") return;\n  uint x = i;\n  for (uint k = 0u; k < 32u; ++k) x = buf.v[(x + k) & 1023u];\n"
         "  buf.v[i] = x; }";
}

TEST(TimingLaunch, ASlotTakesItsNextWorkgroupAfterTheTurnover) {
  // 40 KB of shared memory: one workgroup an SM (the 64 KB carveout), so
  // each of a grid of two workgroups an SM waits for the other, and the
  // second for the turnover besides.
  DeviceModel device = load_device_model("h100");
  device.compute_units = 4;
  const std::string body =
      "shared uint pad[10240];\nvoid main() { uint i = gl_GlobalInvocationID.x; pad[i % 10240u] = i; barrier();\n"
      "  uint x = pad[(i + 1u) % 10240u];\n  for (uint k = 0u; k < 256u; ++k) x = x * 2654435761u + k;\n"
      "  buf.v[i] = x; }";
  const auto seconds = [&](double turnover_ns) {
    device.workgroup_turnover_ns = turnover_ns;
    return predict(script_of(body, 32 * 8, 8), device, {}).compute_seconds;
  };
  EXPECT_NEAR(seconds(1000) - seconds(0), 1e-6, 0.01e-6);
}

TEST(TimingLaunch, SubgroupsThatLeaveEarlyMakeRoomForTheNextWorkgroup) {
  // Workgroups of 160 lanes: the H100's 64 subgroup slots hold 12 whole
  // ones, but 4 of each one's 5 subgroups leave at once, so 24 an SM all run
  // together (h100-turnover-2026-11-24.jsonl: such workgroups pass a slot
  // faster than one of them runs). Five subgroups a workgroup put the
  // working ones on all four SIMDs.
  DeviceModel device = load_device_model("h100");
  device.compute_units = 4;
  device.workgroup_turnover_ns = 0;
  const auto seconds = [&](const std::string& lanes, uint32_t per_cu) {
    return predict(script_of(chain_in(lanes), 160 * 4 * per_cu, 4 * per_cu, 160), device, {}).compute_seconds;
  };
  EXPECT_LT(seconds("32u", 24), 1.2 * seconds("32u", 12));
  // Where every subgroup works to the end, the second twelve wait for the first.
  EXPECT_GT(seconds("160u", 24), 1.8 * seconds("160u", 12));
}

// The final buffer of a script run on the simulator as the timing model
// compiles it: unrolled, short branches flattened up to `flatten`
// instructions, the subgroup size folded or not.
std::vector<uint8_t> run_as_compiled(const launch::Script& script, uint32_t width, uint32_t flatten, bool fold,
                                     bool hoist = false) {
  launch::SimulatorBackend backend(
      launch::SimulatorOptions{width, true, true, 100'000'000, nullptr, flatten, fold, hoist});
  return launch::run_script(script, backend).buffers.at("buf").bytes;
}

// The reductions' second pass: each lane folds a strided slice whose length
// only the run knows (`n` is read from the buffer), in order.
std::string strided_slice_fold(uint32_t n, const std::string& loop_attribute = "") {
  return "#extension GL_EXT_control_flow_attributes : enable\n"
         "void main() { uint t = gl_LocalInvocationID.x; uint n = buf.v[0] * " + std::to_string(n) + "u; uint h = 0u;\n"
         "  " + loop_attribute + " for (uint i = t; i < n; i += 32u) h = h * 31u + buf.v[1u + i];\n"
         "  buf.v[1u + t] = h; }";
}

TEST(TimingUnroll, ALoopOfRunTimeTripsIssuesFourTripsLoadsTogether) {
  const DeviceModel device = load_device_model("h100");
  const auto cycles = [&](const std::string& attribute) {
    return predict(script_of(strided_slice_fold(2048, attribute), 2049), device, {}).compute_seconds;
  };
  // 64 trips, each waiting a load's round trip as written; unrolled, four
  // loads wait one round trip together.
  EXPECT_LT(cycles(""), 0.4 * cycles("[[dont_unroll]]"));
  EXPECT_GT(cycles(""), 0.2 * cycles("[[dont_unroll]]"));
  // The folds keep their order, so every lane's result is the same as the
  // loop as written gives, for any trip count the remainder loop finishes.
  for (uint32_t n : {0u, 1u, 31u, 32u, 33u, 64u, 96u, 127u, 128u, 129u, 160u, 192u, 200u, 224u, 2048u}) {
    const launch::Script script = script_of(strided_slice_fold(n), 2049);
    launch::SimulatorBackend as_written(launch::SimulatorOptions{32, true, false, 100'000'000, nullptr});
    EXPECT_EQ(run_as_compiled(script, 32, 4, true), launch::run_script(script, as_written).buffers.at("buf").bytes)
        << n;
  }
}

TEST(TimingUnroll, TripsLeftOverAfterTheTripsOfFourGoTwoTogetherThenOne) {
  // As the driver compiles the reductions' second pass: a trip of 4 loads,
  // then one of 2, then 1. So 6 trips a lane wait two round trips, as 5 do,
  // where the loop as written for the rest would wait three.
  const DeviceModel device = load_device_model("h100");
  const auto cycles = [&](uint32_t trips) {
    return predict(script_of(strided_slice_fold(32 * trips), 32 * trips + 1), device, {}).compute_seconds;
  };
  const double four = cycles(4), five = cycles(5), six = cycles(6), seven = cycles(7);
  EXPECT_GT(five - four, 0);
  EXPECT_LT(six - four, 1.5 * (five - four));
  EXPECT_GT(seven - four, 1.5 * (five - four));  // 4, 2 and 1: three round trips
}

TEST(TimingFlattening, AShortBranchWhoseSidesOnlyComputeIsPredicated) {
  // Shuffle32's round: half the lanes shift left, half right.
  const launch::Script script = script_of(
      "void main() { uint i = gl_LocalInvocationID.x; uint b = buf.v[i ^ 1u]; uint m = 0x0000ffffu; uint c;\n"
      "  if ((i & 1u) == 0u) { c = b << 1u; } else { m = ~m; c = b >> 1u; }\n"
      "  buf.v[i] = (buf.v[i] & m) | (c & ~m); }");
  const DeviceModel device = load_device_model("h100");
  TimingOptions branching;
  branching.flatten_branches_up_to = 0;
  const Prediction as_written = predict(script, device, branching);
  const Prediction predicated = predict(script, device, {});
  EXPECT_EQ(as_written.counters.divergent_branches, 1);
  EXPECT_EQ(predicated.counters.branches, 0);
  // Both sides issue either way (the branch diverges); the branch and the
  // two jumps to the merge go.
  EXPECT_LT(predicated.counters.instructions, as_written.counters.instructions);
  EXPECT_EQ(run_as_compiled(script, 32, 4, true), run_as_compiled(script, 32, 0, false));
}

TEST(TimingFlattening, ABranchThatStoresRunsLongOrAsksNotToBeFlattenedStays) {
  const DeviceModel device = load_device_model("h100");
  const auto branches_of = [&](const std::string& branch, uint32_t up_to) {
    const launch::Script script = script_of(
        "#extension GL_EXT_control_flow_attributes : enable\n"
        "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[i];\n" + branch + "\n  buf.v[i] = x; }");
    TimingOptions options;
    options.flatten_branches_up_to = up_to;
    EXPECT_EQ(run_as_compiled(script, 32, up_to, true), run_as_compiled(script, 32, 0, false)) << branch;
    return predict(script, device, options).counters.branches;
  };
  const std::string shifts = "  if ((i & 1u) == 0u) { x = (x << 3u) ^ (x >> 5u) ^ (x * 7u); } else { x = x + 1u; }";
  EXPECT_EQ(branches_of(shifts, 8), 0);
  EXPECT_GE(branches_of(shifts, 2), 1);  // five instructions on a side
  EXPECT_GE(branches_of("  if ((i & 1u) == 0u) { buf.v[i ^ 1u] = x; }", 8), 1);
  EXPECT_GE(branches_of("  [[dont_flatten]] if ((i & 1u) == 0u) { x = x << 1u; }", 8), 1);
  EXPECT_EQ(branches_of("  [[flatten]] if ((i & 1u) == 0u) { x = (x << 3u) ^ (x >> 5u) ^ (x * 7u); }", 2), 0);
}

TEST(TimingFlattening, ASideThatAddsIntoItsOwnSharedWordIsPredicated) {
  // The reductions' last steps: `if (tid < s) sdata[tid] += sdata[tid + s];`,
  // the word made before the selection. ptxas predicates the two loads, the
  // add and the store (validate/data/sass/reduce_first_pass.sass), so that
  // every subgroup issues them, the ones whose lanes all skip included.
  const launch::Script script = script_of(
      "shared uint sdata[64];\n"
      "void main() { uint tid = gl_LocalInvocationID.x; sdata[tid] = buf.v[tid]; barrier();\n"
      "  if (tid < 32u) sdata[tid] += sdata[tid + 32u];\n  if (tid < 16u) sdata[tid] += sdata[tid + 16u];\n"
      "  if (tid < 8u) sdata[tid] += sdata[tid + 8u];\n  barrier(); buf.v[tid] = sdata[tid]; }",
      64, 1, 64);
  const DeviceModel device = load_device_model("h100");
  TimingOptions branching;
  branching.flatten_branches_up_to = 0;
  const Prediction as_written = predict(script, device, branching);
  const Prediction predicated = predict(script, device, {});
  EXPECT_EQ(as_written.counters.branches, 2 * 3);  // two subgroups, three ifs
  EXPECT_EQ(predicated.counters.branches, 0);
  // The second subgroup, none of whose lanes adds, now issues the steps too.
  EXPECT_GT(predicated.counters.shared_load_requests, as_written.counters.shared_load_requests);
  // Only the lanes that take a side write: the sums are the same.
  EXPECT_EQ(run_as_compiled(script, 32, 4, true), run_as_compiled(script, 32, 0, false));
  // A side that writes a word it has not read stays a branch.
  const launch::Script scatter = script_of(
      "shared uint sdata[64];\n"
      "void main() { uint tid = gl_LocalInvocationID.x; sdata[tid] = buf.v[tid]; barrier();\n"
      "  if (tid < 32u) sdata[tid + 32u] = sdata[tid] + 1u;\n  barrier(); buf.v[tid] = sdata[tid]; }",
      64, 1, 64);
  EXPECT_EQ(predict(scatter, device, {}).counters.branches, 2);
}

TEST(TimingFolding, TheDriverKnowsTheSubgroupSize) {
  // The transposes' guard: on a subgroup size it takes, the driver leaves
  // no test and no branch of it.
  const launch::Script script = script_of(
      "#extension GL_KHR_shader_subgroup_basic : enable\n"
      "void main() { uint i = gl_LocalInvocationID.x;\n"
      "  if ((gl_SubgroupSize & 31u) != 0u) { buf.v[i] = gl_SubgroupSize; return; }\n"
      "  buf.v[i] = buf.v[i] * 3u + gl_SubgroupInvocationID; }", 64, 2);
  const DeviceModel device = load_device_model("h100");
  TimingOptions unknown;
  unknown.fold_subgroup_size = false;
  const Prediction folded = predict(script, device, {});
  const Prediction not_folded = predict(script, device, unknown);
  EXPECT_EQ(folded.counters.branches, 0);
  EXPECT_GE(not_folded.counters.branches, 2);
  EXPECT_LT(folded.counters.instructions, not_folded.counters.instructions);
  // What each lane computes is the same at any width, the guard taken or not.
  for (uint32_t width : {8u, 32u, 64u})
    EXPECT_EQ(run_as_compiled(script, width, 4, true), run_as_compiled(script, width, 4, false)) << width;
}

TEST(TimingMemory, APrivateVectorReadByARunTimeIndexStaysInRegisters) {
  // The same chain as through a private array, through a uvec4: a compiler
  // keeps the vector in registers and selects the component.
  EXPECT_EQ(cycles_with_local_latency_raised(
                "void main() { uint i = gl_LocalInvocationID.x;\n"
                "  uvec4 t = uvec4(buf.v[0], buf.v[1], buf.v[2], buf.v[3]) & 3u;\n"
                "  uint x = i & 3u;\n  for (uint k = 0u; k < 64u; ++k) x = t[x];\n  buf.v[i] = x; }"),
            0);
}

TEST(TimingSharedPipe, ShufflesAndVotesQueueForTheSharedMemoryPipe) {
  // Eight workgroups of 32 lanes, 256 independent shuffles (or ballots) each,
  // on one compute unit.
  const auto body = [](const std::string& op) {
    return "#extension GL_KHR_shader_subgroup_shuffle : enable\n#extension GL_KHR_shader_subgroup_ballot : enable\n"
           "void main() { uint i = gl_GlobalInvocationID.x; uint x = buf.v[i]; uint y = 0u;\n"
           "  for (uint k = 0u; k < 256u; ++k) y += " + op + ";\n  buf.v[i] = y; }";
  };
  DeviceModel device = load_device_model("h100");
  device.compute_units = 1;
  const double hz = device.clock_mhz * 1e6;
  for (const std::string op : {"subgroupShuffleXor(x + k, 1u)", "subgroupBallot(((x >> (k & 31u)) & 1u) != 0u).x"}) {
    SCOPED_TRACE(op);
    const launch::Script script = script_of(body(op), 32 * 8, 8);
    device.subgroup_shuffle_cycles = device.subgroup_vote_cycles = 0;
    const Prediction free_unit = predict(script, device, {});
    device.subgroup_shuffle_cycles = device.subgroup_vote_cycles = 16;
    const Prediction busy_unit = predict(script, device, {});
    // 8 x 256 operations, 16 cycles each, one after another.
    EXPECT_GE(busy_unit.compute_seconds * hz, 8 * 256 * 16);
    EXPECT_LT(free_unit.compute_seconds * hz, 8 * 256 * 16 / 2);
  }
}

// A kernel of sixteen workgroups of one subgroup on one compute unit, 128
// steps a subgroup, run with a pipe-holding field of the device (`hold`) at
// 0 and at 8: the others' work cannot hide what each hold costs. With 8 a
// step takes at least `step_cycles`; without, under half that. Returns the
// counters with 8.
TimingCounters expect_pipe_holds(const std::string& body, void (*hold)(DeviceModel&, uint32_t), double step_cycles) {
  const launch::Script script = script_of(body, 32 * 16, 16);
  DeviceModel device = load_device_model("h100");
  device.compute_units = 1;
  // A predicating compare at an integer's latency: each subgroup's chain
  // then stays under half the held pipe's cycles.
  device.latency_cycles.predicate = device.latency_cycles.int_op;
  const double hz = device.clock_mhz * 1e6;
  hold(device, 0);
  const Prediction free_pipe = predict(script, device, {});
  hold(device, 8);
  const Prediction held_pipe = predict(script, device, {});
  EXPECT_GE(held_pipe.compute_seconds * hz, 16 * 128 * step_cycles);
  EXPECT_LT(free_pipe.compute_seconds * hz, 16 * 128 * step_cycles / 2);
  return held_pipe.counters;
}

TEST(TimingSharedPipe, BarrierArrivalsHoldTheSharedMemoryPipe) {
  // An arrival of 8 cycles, and a wavefront for each store and load.
  expect_pipe_holds(
      "shared uint s[32];\n"
      "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[gl_GlobalInvocationID.x];\n"
      "  for (uint k = 0u; k < 64u; ++k) { s[i] = x; barrier(); x += s[i ^ 1u]; barrier(); }\n"
      "  buf.v[gl_GlobalInvocationID.x] = x; }",
      [](DeviceModel& d, uint32_t cycles) { d.barrier_pipe_cycles = cycles; }, 8 + 1);
}

TEST(TimingSharedPipe, ABarrierArrivalHoldsTheSharedMemoryPipeWhatItsWorkgroupSizeMeasured) {
  // The same steps in workgroups of four subgroups, where the points measured
  // give an arrival 2 cycles (8 at one subgroup, 5 at eight): the time is
  // that of an arrival of 2 at every size, not of 8.
  const std::string body =
      "shared uint s[128];\n"
      "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[gl_GlobalInvocationID.x];\n"
      "  for (uint k = 0u; k < 64u; ++k) { s[i] = x; barrier(); x += s[i ^ 1u]; barrier(); }\n"
      "  buf.v[gl_GlobalInvocationID.x] = x; }";
  const launch::Script four = script_of(body, 32 * 16, 4, 128);
  DeviceModel by_size = load_device_model("h100");
  by_size.compute_units = 1;
  DeviceModel two = by_size, eight = by_size;
  by_size.barrier_pipe_cycles_by_subgroups = {{1, 8}, {4, 2}, {8, 5}};
  two.barrier_pipe_cycles = 2;
  eight.barrier_pipe_cycles = 8;
  const double measured = predict(four, by_size, {}).compute_seconds;
  EXPECT_EQ(measured, predict(four, two, {}).compute_seconds);
  EXPECT_LT(measured, predict(four, eight, {}).compute_seconds);
}

TEST(TimingSharedPipe, APredicatedStoreNoLanePerformsStillHoldsTheSharedMemoryPipe) {
  // APSP's relaxation: a shared word rewritten only where it shrinks, here
  // never (every word stays 0), so each of a subgroup's 128 steps is a load
  // and a store no lane performs.
  // A store of 8 passes, and a wavefront for the load.
  const TimingCounters held = expect_pipe_holds(
      "shared uint s[32];\n"
      "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[gl_GlobalInvocationID.x]; s[i] = 0u;\n"
      "  for (uint k = 0u; k < 128u; ++k) { uint v = x + k; if (v < s[i ^ (k & 1u)]) s[i ^ (k & 1u)] = v; }\n"
      "  buf.v[gl_GlobalInvocationID.x] = s[i]; }",
      [](DeviceModel& d, uint32_t passes) { d.shared_predicated_off_passes = passes; }, 8 + 1);
  EXPECT_EQ(held.shared_store_wavefronts, 16 * 1);  // only the first store writes
}

TEST(TimingSharedPipe, AFlattenedSidesLoadsNoLaneTakesPassThePipeAndTouchNoBank) {
  // A uniform if/else whose sides each read two shared words (predicated,
  // branch_flattening.h), the first side never taken: its loads would
  // conflict 2-way if a lane read them; a lane that does not take a side
  // reads element 0 in the functional run, which the device never reads.
  // Two loads of 8 passes each, and the taken side's 2 wavefronts.
  const TimingCounters held = expect_pipe_holds(
      "shared uint a[64]; shared uint b[64];\n"
      "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[gl_GlobalInvocationID.x];\n"
      "  a[i] = i; b[i] = 3u * i; a[i + 32u] = i; b[i + 32u] = i; barrier(); uint acc = 0u;\n"
      "  for (uint k = 0u; k < 128u; ++k) {\n"
      "    uint p = (2u * i + k) & 63u, q = (i + k) & 31u;\n"
      "    if (x > 1000u) acc ^= a[p] + b[p]; else acc ^= b[q] + a[q];\n"
      "  }\n"
      "  buf.v[gl_GlobalInvocationID.x] = acc; }",
      [](DeviceModel& d, uint32_t passes) { d.shared_predicated_off_passes = passes; }, 2 * 8 + 2);
  EXPECT_EQ(held.shared_load_bank_conflicts, 0);
}

TEST(TimingSharedPipe, AFlattenedSidesLoadsNoLaneTakesTouchNoBankWhereTheOtherSideReadsTheSameIndex) {
  // APSP phase 2's pivot_row if/else: each side reads the same row and
  // column of its own tile, the driver addressing both sides' loads from one
  // register. The side no lane takes still touches no bank: one pass a load
  // off over +no-branch meets the device's as written nearer than the loads'
  // conflicts do in 5 of 10 shapes and layouts measured, column-major tiles'
  // 16-way ones included, and as near in 4 (validate/data/README.md, "What
  // flattening a row's first cell changed in the model"). Here each side
  // reads `a[p] + b[p]` or `b[p] + a[p]`, p a 4-way conflict, and the first
  // side is never taken: 16 subgroups of 128 steps, four wavefronts for each
  // of the two loads performed, none for the two off.
  const launch::Script script = script_of(
      "shared uint a[128]; shared uint b[128];\n"
      "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[gl_GlobalInvocationID.x];\n"
      "  for (uint w = 0u; w < 4u; ++w) { a[i + 32u * w] = i; b[i + 32u * w] = 3u * i; }\n"
      "  barrier(); uint acc = 0u;\n"
      "  for (uint k = 0u; k < 128u; ++k) {\n"
      "    uint p = (4u * i + k) & 127u;\n"
      "    if (x > 1000u) acc ^= a[p] + b[p]; else acc ^= b[p] + a[p];\n"
      "  }\n"
      "  buf.v[gl_GlobalInvocationID.x] = acc; }",
      32 * 16, 16);
  const TimingCounters counters = predict(script, load_device_model("h100"), {}).counters;
  const double steps = 16.0 * 128;
  EXPECT_EQ(counters.shared_load_bank_conflicts, steps * 2 * 3);
  EXPECT_EQ(counters.shared_load_wavefronts, steps * 2 * 4);
}

// Cycles of a kernel of 64 workgroups of 32 lanes on one compute unit (16
// subgroups on each of its 4 SIMDs: throughput-bound).
double cycles_on_one_compute_unit(const std::string& body, const DeviceModel& base, uint32_t int_lanes) {
  DeviceModel device = base;
  device.compute_units = 1;
  device.int_lanes_per_simd = int_lanes;
  return predict(script_of(body, 32 * 64, 64), device, {}).compute_seconds * device.clock_mhz * 1e6;
}

// Eight independent chains a lane of `type` (uint or int), 64 steps each:
// `step("a3")` is a step of chain a3, over c and s (c & 7) from the buffer.
// The loop asks to be unrolled fully: a loop of eight accumulators would
// otherwise be kept in trips of a few steps (rolled_loops.h), and these
// tests count the pipes, not the loop.
template <typename Step>
std::string eight_chains(const std::string& type, Step step) {
  std::string body = "#extension GL_EXT_control_flow_attributes : enable\n"
                     "void main() { uint i = gl_GlobalInvocationID.x; " + type + " c = " + type + "(buf.v[0]), s = c & " +
                     type + "(7);\n  " + type + " a0 = " + type + "(i)";
  for (int v = 1; v < 8; ++v) body += ", a" + std::to_string(v) + " = a0 + " + type + "(" + std::to_string(v) + ")";
  body += ";\n  [[unroll]] for (uint k = 0u; k < 64u; ++k) { ";
  for (int v = 0; v < 8; ++v) body += step("a" + std::to_string(v)) + " ";
  return body + "}\n  buf.v[i] = uint(a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7); }";
}

TEST(TimingPipes, IntegerLogicIssuesAtTheIntegerPipesWidthBesideTheFloatPipe) {
  // Eight independent chains a lane, 64 steps each: a shift and a xor a step
  // (both on the integer pipe), or an add and a xor (the add takes the float
  // pipe while the xor holds the integer one).
  const std::string logic = eight_chains("uint", [](const std::string& a) { return a + " = (" + a + " >> s) ^ c;"; });
  const std::string add = eight_chains("uint", [](const std::string& a) { return a + " = (" + a + " + c) ^ s;"; });
  const DeviceModel h100 = load_device_model("h100");
  // 64 workgroups x 64 steps x 8 chains x 2 operations, over 4 SIMDs.
  const double steps_per_simd = 64.0 * 64 * 8 / 4;
  const double logic_shared = cycles_on_one_compute_unit(logic, h100, 0);
  const double logic_own = cycles_on_one_compute_unit(logic, h100, 16);
  EXPECT_NEAR(logic_shared, steps_per_simd * 2, steps_per_simd * 0.2);  // 32 lanes: a cycle an operation
  EXPECT_NEAR(logic_own, steps_per_simd * 4, steps_per_simd * 0.4);     // 16 lanes: two
  const double add_own = cycles_on_one_compute_unit(add, h100, 16);
  EXPECT_NEAR(add_own, steps_per_simd * 2, steps_per_simd * 0.3);       // the two pipes overlap
}

TEST(TimingPipes, IntegerMinMaxAndTheFusedAddMinIssueAtTheIntegerPipesWidth) {
  // Eight independent signed chains a lane, 64 steps each: a min then a max
  // (two IMNMX), or an add then a min (one VIADDMNMX on the H100). On the
  // H100 both run at the integer pipe's 16 lanes (alu_throughput_min_max,
  // alu_throughput_add_min): two cycles an instruction.
  const std::string min_max = eight_chains("int", [](const std::string& a) { return a + " = max(min(" + a + ", c), s);"; });
  const std::string add_min = eight_chains("int", [](const std::string& a) { return a + " = min(" + a + " + c, s);"; });
  const DeviceModel h100 = load_device_model("h100");
  const double steps_per_simd = 64.0 * 64 * 8 / 4;
  EXPECT_NEAR(cycles_on_one_compute_unit(min_max, h100, 16), steps_per_simd * 4, steps_per_simd * 0.4);
  EXPECT_NEAR(cycles_on_one_compute_unit(add_min, h100, 16), steps_per_simd * 2, steps_per_simd * 0.3);
}

TEST(TimingClasses, AFusedAddMinWaitsItsOwnLatencyAndAMinTheIntegerOne) {
  // 64 dependent steps a lane: min(x + y, z) is one instruction where the
  // device fuses them (latency_cycles.add_min_max), min then max two integer
  // operations (latency_cycles.int); neither waits the float latency.
  const auto chain = [](const std::string& step) {
    return script_of("void main() { uint i = gl_LocalInvocationID.x; int x = int(buf.v[i]), y = int(buf.v[1]),"
                     " z = int(buf.v[2]);\n  for (uint k = 0u; k < 64u; ++k) " + step + "\n  buf.v[i] = uint(x); }");
  };
  const double cycle = 1 / (load_device_model("h100").clock_mhz * 1e6);
  for (const auto& [step, fused] : {std::pair{"x = min(x + y, z);", true}, std::pair{"x = max(min(x, y), z);", false}}) {
    DeviceModel device = load_device_model("h100");
    const double base = predict(chain(step), device, {}).compute_seconds;
    device.latency_cycles.float_op += 20;
    EXPECT_EQ(predict(chain(step), device, {}).compute_seconds, base) << step;
    (fused ? device.latency_cycles.add_min_max : device.latency_cycles.int_op) += 20;
    EXPECT_GE(predict(chain(step), device, {}).compute_seconds, base + 64 * 20 * cycle * 0.999) << step;
  }
}

TEST(TimingClasses, ACompareThatPredicatesAStoreWaitsThePredicateLatency) {
  // 64 dependent steps a lane: load a shared word, add, compare, and store
  // the word back where it shrank (APSP's cell: a predicated store, ISETP
  // then @P STS), the next step's load behind the store. The compare's
  // result is a predicate, which the store reads latency_cycles.predicate
  // after it (the H100's lone APSP cells: validate/data/README.md). Stored
  // every step as a min, no compare predicates it and that latency is not
  // waited.
  const auto chain = [](const std::string& step) {
    return script_of("shared int s[32];\nvoid main() { uint i = gl_LocalInvocationID.x; s[i] = int(buf.v[i]);\n"
                     "  for (uint k = 0u; k < 64u; ++k) { int t = s[i] + int(buf.v[1]); " + step + " }\n"
                     "  buf.v[i] = uint(s[i]); }");
  };
  const double cycle = 1 / (load_device_model("h100").clock_mhz * 1e6);
  for (const auto& [step, predicated] : {std::pair{"if (t < s[i ^ 1u]) s[i] = t;", true},
                                         std::pair{"s[i] = min(t, s[i ^ 1u]);", false}}) {
    DeviceModel device = load_device_model("h100");
    const double base = predict(chain(step), device, {}).compute_seconds;
    device.latency_cycles.predicate += 20;
    const double later = predict(chain(step), device, {}).compute_seconds;
    if (predicated)
      EXPECT_GE(later, base + 64 * 20 * cycle * 0.999) << step;
    else
      EXPECT_EQ(later, base) << step;
  }
}

TEST(TimingHoisting, LoopInvariantWorkLeavesABarrierFreeLoopButNotOneThatWaits) {
  // Shuffle32's round written in a loop of run-time trips: the lane's half
  // and the mask depend on nothing the loop changes, and leave it. With the
  // Threadgroup transposes' shared exchange in the loop, its barriers keep
  // them in, as the NVIDIA driver computes them again in every repetition
  // of the Threadgroup transposes (validate/data/sass/driver-2026-11-26/);
  // the exchange's loads stay either way: the loop stores to them.
  const auto script = [](const std::string& exchange) {
    return script_of(
        "#extension GL_KHR_shader_subgroup_basic : enable\n"
        "shared uint s[32];\n"
        "uint round_of(uint a, uint m, uint k) {\n"
        "  uint c;\n"
        "  if ((gl_SubgroupInvocationID & k) == 0u) { c = a << k; } else { m = ~m; c = a >> k; }\n"
        "  return (a & m) | (c & ~m); }\n"
        "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[i];\n"
        "  for (uint r = 0u; r < buf.v[0] + 8u; ++r) {\n"
        "    x = round_of(x, 0x0000ffffu, 16u);\n" +
        exchange + " }\n  buf.v[i] = x; }");
  };
  const DeviceModel device = load_device_model("h100");
  TimingOptions as_written;
  as_written.hoist_loop_invariants = false;
  const launch::Script free = script(""), waits = script("    s[i] = x; barrier(); x ^= s[i ^ 1u]; barrier();");
  // 9 trips (buf.v[0] = 1): at least the test on the lane's half and the two masks leave.
  EXPECT_LE(predict(free, device, {}).counters.instructions,
            predict(free, device, as_written).counters.instructions - 3 * 8);
  const Prediction hoisted = predict(waits, device, {});
  const Prediction kept = predict(waits, device, as_written);
  // Only the read of gl_SubgroupInvocationID leaves (to the entry, as every builtin's).
  EXPECT_GE(hoisted.counters.instructions, kept.counters.instructions - 9);
  EXPECT_EQ(hoisted.counters.shared_load_requests, kept.counters.shared_load_requests);
  EXPECT_EQ(hoisted.counters.shared_load_requests, 9);
  EXPECT_EQ(run_as_compiled(waits, 32, 4, true, true), run_as_compiled(waits, 32, 4, true, false));
  EXPECT_EQ(run_as_compiled(free, 32, 4, true, true), run_as_compiled(free, 32, 4, true, false));
}

TEST(TimingHoisting, ALoopThatWritesNothingReadsAFixedAddressOnce) {
  // The ALU latency benchmark: a multiply-add chain whose constants come from
  // the buffer in every step. Stored to inside the loop, the buffer must be
  // read again in every trip; a store to shared memory cannot change it, so
  // the buffer is still read once (as the NVIDIA driver loads the shared
  // chase's `offset` before its loop, validate/data/sass/driver-2026-11-26-store-load/).
  const auto body = [](const std::string& inside) {
    return "#extension GL_EXT_control_flow_attributes : enable\n"
           "shared uint s[64];\n"
           "void main() { uint i = gl_LocalInvocationID.x; uint x = i;\n"
           "  [[dont_unroll]] for (uint k = 0u; k < 64u; ++k) {\n"
           "    x = x * buf.v[0] + buf.v[1]; x = x * buf.v[0] + buf.v[1];" + inside + " }\n"
           "  buf.v[i] = x + s[i]; }";
  };
  DeviceModel device = load_device_model("h100");
  const double hz = device.clock_mhz * 1e6;
  const double reading_once = predict(script_of(body("")), device, {}).compute_seconds * hz;
  const double reading_each_trip = predict(script_of(body(" buf.v[i] = x;")), device, {}).compute_seconds * hz;
  const double storing_to_shared = predict(script_of(body(" s[i] = x;")), device, {}).compute_seconds * hz;
  // 128 multiply-adds one after another, and the loads, the store and the loop's few cycles.
  const double chain = 128.0 * device.latency_cycles.int_multiply;
  EXPECT_LT(reading_once, chain + 4 * device.latency_cycles.global);
  EXPECT_GT(reading_each_trip, chain + 32 * device.latency_cycles.global);
  EXPECT_LT(storing_to_shared, chain + 4 * device.latency_cycles.global);
}

TEST(TimingSinking, AWorkgroupThatLeavesAtOnceIssuesOnlyWhatItsTestNeeds) {
  // As APSP's phases: what the rest of the kernel needs is written before
  // the test that sends most workgroups away. A vendor compiler computes it
  // past the test; the workgroups that leave issue the test alone.
  const std::string body =
      "void main() { uint i = gl_LocalInvocationID.x; uint a = i * 3u + buf.v[1]; uint b = (i ^ 5u) + a;\n"
      "  bool owns = i < 16u && a > 2u;\n"
      "  if (gl_WorkGroupID.x != buf.v[0] - 1u) return;\n"
      "  if (owns) buf.v[i] = a + b; }";
  const DeviceModel device = load_device_model("h100");
  TimingOptions as_written;
  as_written.hoist_loop_invariants = false;
  // The instructions of the 63 workgroups that leave: a grid of 64 less a grid of 1.
  const auto leaving = [&](const TimingOptions& options) {
    return predict(script_of(body, 32, 64), device, options).counters.instructions -
           predict(script_of(body, 32, 1), device, options).counters.instructions;
  };
  const double sunk = leaving({}), kept = leaving(as_written);
  // The test's loads (the buffer's stay where SPIR-V reads them), its
  // subtraction, compare and branch and the way out; kept before it too,
  // the lane's index, the multiply-add, the xor and add, owns' compares and and.
  EXPECT_LE(sunk, 63 * 9);
  EXPECT_GE(kept - sunk, 63 * 6);
  // The one workgroup that stays computes what it did.
  const launch::Script script = script_of(body, 32, 1);
  launch::SimulatorBackend plain(launch::SimulatorOptions{32, true, false, 100'000'000, nullptr});
  EXPECT_EQ(run_as_compiled(script, 32, 4, true, true), launch::run_script(script, plain).buffers.at("buf").bytes);
}

TEST(TimingHoisting, AtMostSevenConditionsStayLiveAcrossALoop) {
  // Ballot32's `i == row_ix`, 32 of them, each read in the loop by a select
  // of what the loop computes: a predicate register each, of NVIDIA's 7.
  std::string steps;
  for (int k = 0; k < 32; ++k)
    steps += "    x = (row == " + std::to_string(k) + "u) ? x + " + std::to_string(k + 1) + "u : x ^ y;\n";
  const launch::Script script = script_of(
      "void main() { uint i = gl_LocalInvocationID.x; uint row = i & 31u; uint x = buf.v[i], y = buf.v[1];\n"
      "  for (uint r = 0u; r < buf.v[0] + 8u; ++r) {\n" + steps + "    y = y * 3u + x; }\n"
      "  buf.v[i] = x; }");
  const DeviceModel device = load_device_model("h100");
  TimingOptions as_written;
  as_written.hoist_loop_invariants = false;
  const double saved = predict(script, device, as_written).counters.instructions -
                       predict(script, device, {}).counters.instructions;
  // Each condition that leaves issues once instead of 9 times: 8 issues saved.
  EXPECT_GE(saved, 7 * 8);
  EXPECT_LT(saved, 12 * 8);
  EXPECT_EQ(run_as_compiled(script, 32, 4, true, true), run_as_compiled(script, 32, 4, true, false));
}

TEST(TimingMemory, AConstantArrayIsReadThroughTheConstantCache) {
  // HybridShuffle32's `shifts[i]` in a loop the compiler keeps: a const
  // array read at a run-time index. Each read waits the local-memory
  // latency; only the first of its line waits for memory.
  const std::string body =
      "const uint table[4] = uint[4](1u, 2u, 3u, 0u);\n"
      "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[0] & 3u;\n"
      "  for (uint k = 0u; k < 64u; ++k) x = table[x];\n  buf.v[i] = x; }";
  EXPECT_NEAR(cycles_with_local_latency_raised(body), 63 * 100, 2 * 100);
  const launch::Script script = script_of(body);
  DeviceModel device = load_device_model("h100");
  const Prediction near = predict(script, device, {});
  device.latency_cycles.global += 1000;
  const Prediction far = predict(script, device, {});
  // The buffer's load and store, and one constant-cache miss: 3 x 1000 more.
  EXPECT_NEAR((far.compute_seconds - near.compute_seconds) * device.clock_mhz * 1e6, 3000, 100);
}

// The script's if/else as the timing model compiles it: flattened (no
// branch left), a branch when flattening is off, the same results either way.
void expect_flattened(const launch::Script& script) {
  const DeviceModel device = load_device_model("h100");
  TimingOptions branching;
  branching.flatten_branches_up_to = 0;
  EXPECT_EQ(predict(script, device, {}).counters.branches, 0);
  EXPECT_GE(predict(script, device, branching).counters.branches, 1);
  EXPECT_EQ(run_as_compiled(script, 32, 4, true), run_as_compiled(script, 32, 0, false));
}

TEST(TimingFlattening, ABranchReadingAPrivateVectorAtARunTimeIndexIsPredicated) {
  // Ballot32 as written: `if (i == row_ix) output_row = vote[local_matrix];`
  const launch::Script script = script_of(
      "void main() { uint i = gl_LocalInvocationID.x; uint out_row = 0u;\n"
      "  uvec4 v = uvec4(buf.v[i], buf.v[i ^ 1u], buf.v[i ^ 2u], buf.v[i ^ 3u]); uint pick = buf.v[0] & 3u;\n"
      "  if ((i & 3u) == 1u) { out_row = v[pick]; }\n"
      "  buf.v[i] = out_row; }");
  expect_flattened(script);
}

TEST(TimingFlattening, ASideThatReadsSharedMemoryIsPredicatedAndReadsElementZeroWhereNotTaken) {
  // APSP phase 2's cell: an if/else whose sides each read two shared words
  // and add them. Lanes 16-31 do not take the first side, where `s[i * 2u]`
  // would be out of bounds: predicated, they read s[0] in its place.
  const launch::Script script = script_of(
      "shared uint s[32];\n"
      "void main() { uint i = gl_LocalInvocationID.x; s[i] = buf.v[i]; barrier(); uint x;\n"
      "  if (i < 16u) { x = s[i * 2u] + s[i]; } else { x = s[i ^ 1u] + 1u; }\n"
      "  buf.v[i] = x; }");
  expect_flattened(script);
  const DeviceModel device = load_device_model("h100");
  // A side of three loads stays a branch (its loads and adds are five instructions).
  const launch::Script longer = script_of(
      "shared uint s[32];\n"
      "void main() { uint i = gl_LocalInvocationID.x; s[i] = buf.v[i]; barrier(); uint x;\n"
      "  if (i < 16u) { x = s[i * 2u] + s[i] + s[i + 1u]; } else { x = s[i ^ 1u]; }\n"
      "  buf.v[i] = x; }");
  EXPECT_GE(predict(longer, device, {}).counters.branches, 1);
}

TEST(TimingFlattening, APivotRowIfElseIsPredicatedItsIndexArithmeticFoldedIntoTheLoads) {
  // APSP phase 2's cell: `pivot_row ? b[at(row, k)] + a[at(k, col)] :
  // a[at(row, k)] + b[at(k, col)]`, written as an if/else. Each side adds
  // two words at indices it sums, five instructions with those adds; the
  // H100's driver issues both sides' loads under @P and @!P, the adds
  // folded into the addresses
  // (validate/data/sass/driver-2026-11-26/apsp-32-16x16/phase2.sass).
  const std::string kernel =
      "shared uint a[64];\nshared uint b[64];\n"
      "void main() { uint i = gl_LocalInvocationID.x; a[i] = buf.v[i]; b[i] = buf.v[i + 32u]; barrier();\n"
      "  uint row = (i >> 3u) * 8u, col = i & 7u, k = buf.v[0] & 7u, pivot = k * 8u; uint x;\n"
      "  if (buf.v[1] == 0u) { x = b[row + k] + a[pivot + col]; } else { x = a[row + k] + b[pivot + col]; }\n"
      "  buf.v[i] = x; }";
  expect_flattened(script_of(kernel, 64));
}

TEST(TimingFlattening, ASidesMultipliesThatOnlyAddressItsLoadsAreFoldedIntoThem) {
  // APSP phase 2's first cell of a row: the side itself multiplies the row
  // by the tile's width, `b[row * w + k] + a[k * w + col]`. The driver
  // predicates it like the cells after it, its multiply-adds computing
  // addresses (validate/data/sass/driver-2026-11-26/apsp-64-16x16/phase2.sass):
  // each side's two loads and add are three instructions, not five.
  const std::string kernel =
      "shared uint a[64];\nshared uint b[64];\n"
      "void main() { uint i = gl_LocalInvocationID.x; a[i] = buf.v[i]; b[i] = buf.v[i + 32u]; barrier();\n"
      "  uint row = i >> 3u, col = i & 7u, k = buf.v[0] & 7u, w = buf.v[2] + 5u; uint x;\n"
      "  if (buf.v[1] == 0u) { x = b[row * w + k] + a[k * w + col]; } else { x = a[row * w + k] + b[k * w + col]; }\n"
      "  buf.v[i] = x; }";
  expect_flattened(script_of(kernel, 64));
}

TEST(TimingFlattening, APredicatedSidesIndexOneRowOnIsAnImmediateOffsetFromTheRowBefore) {
  // APSP phase 2's cells of one step: each row's pivot words at at(row, k),
  // the next row's at(row + 4, k), 32 words on. The H100's driver computes
  // one address for both sides and reads the other rows at immediate
  // offsets from it (`@P6 LDS R5, [R7]`, `@!P6 LDS R0, [R7+0x4000]`:
  // validate/data/sass/driver-2026-11-26/apsp-64-16x16/phase2.sass); the
  // flattened side's index is `taken ? index : 0`, which the fold looks through.
  const launch::Script script = script_of(
      "shared uint a[64];\nshared uint b[64];\n"
      "void main() { uint i = gl_LocalInvocationID.x; a[i] = buf.v[i]; b[i] = buf.v[i + 32u]; barrier();\n"
      "  uint row = i >> 3u, col = i & 7u, k = buf.v[0] & 7u; bool p = buf.v[1] == 0u; uint x, y;\n"
      "  uint first = row * 8u + k, next = (row + 4u) * 8u + k, pivot = k * 8u + col;\n"
      "  if (p) { x = b[first] + a[pivot]; } else { x = a[first] + b[pivot]; }\n"
      "  if (p) { y = b[next] + a[pivot]; } else { y = a[next] + b[pivot]; }\n"
      "  buf.v[i] = x + y; }",
      64);
  expect_flattened(script);
  launch::SimulatorBackend backend(
      launch::SimulatorOptions{32, true, true, 100'000'000, nullptr, TimingOptions{}.flatten_branches_up_to, true, false});
  const frontend::Program& program = backend.program(script, script.pipelines.front());
  const std::vector<bool> fused = fuse_instructions(program).fused;
  size_t adds = 0, adds_folded = 0;
  for (size_t i = 0; i < program.instructions.size(); ++i)
    if (static_cast<spv::Op>(program.instructions[i].opcode) == spv::Op::OpIAdd) ++adds, adds_folded += fused[i];
  // Ten adds: `i + 32u` (a buffer index, an immediate offset already),
  // `first`'s and `pivot`'s (their multiplies folded into multiply-adds),
  // `next`'s two, each side's sum of two words and `x + y`. `next` is
  // `first` plus 32: its two adds issue nothing. Where the fold stopped at
  // the sides' selects, they issued (1 of 10 folded).
  EXPECT_EQ(adds, 10u);
  EXPECT_EQ(adds_folded, 3u);
}

TEST(TimingFlattening, AGuardedBufferLoadIsPredicatedTheEarlyReturnOfAFunctionToo) {
  // The luminance shaders' fetch: `if (x >= width ...) return 0.0; return
  // dot(pixels[...], lum);`, inlined into a loop of fetches. ptxas predicates
  // each fetch's load (validate/data/sass/luminance.sass: every LDG issued
  // before the first use). Lanes whose guard fails read element 0 in the
  // flattened program; x runs past the buffer's 32 words there.
  expect_flattened(script_of(
      "uint fetch(uint x) { if (x >= 24u) return 0u; return buf.v[x] * 3u; }\n"
      "void main() { uint i = gl_LocalInvocationID.x; uint s = 0u;\n"
      "  for (uint f = 0u; f < 2u; ++f) s += fetch(i + 16u * f);\n  barrier(); buf.v[i] = s; }"));
  // The same guard as a ?: of a load.
  expect_flattened(script_of(
      "void main() { uint i = gl_LocalInvocationID.x;\n"
      "  uint x = i < 24u ? buf.v[i + 8u] : 0u;\n  barrier(); buf.v[i] = x + 1u; }"));
}

TEST(TimingFlattening, TheSuitesGuardedFetchesStillComputeTheirResultsFlattened) {
  // What the timing model runs is the program flattened: the luminance
  // shaders' fetches past the image's edge (40x24 pixels in 16x16 tiles)
  // and the reductions' `i < n ? in[i] : 0` past n (1000 floats) read
  // element 0 there, and the results must still be the CPU reference's.
  const std::vector<std::pair<std::string, kernels::Params>> cases = {
      {"luminance", {{"variant", "fetch2_8x16"}, {"image", "40x24"}}},
      {"luminance", {{"variant", "fetch4_4x16"}, {"image", "40x24"}}},
      {"reduce", {{"variant", "first_add_during_load"}, {"n", "1000"}}},
      {"reduce", {{"variant", "sequential"}, {"n", "1000"}}}};
  for (const auto& [name, given] : cases) {
    const kernels::Workload& workload = *kernels::find_workload(name);
    const kernels::Params params = workload.with_defaults(given);
    launch::SimulatorBackend flattened(launch::SimulatorOptions{32, true, true, 100'000'000, nullptr, 4, true, false});
    const kernels::CheckResult check = workload.check(params, launch::run_script(workload.build(params), flattened).buffers);
    EXPECT_TRUE(check.passed) << name << " " << given.begin()->second << ": " << check.message;
  }
}

// The stores of a program as the timing model compiles it, and how many of
// them are predicated (write only the lanes whose condition says so).
std::pair<size_t, size_t> count_predicated_stores(const std::string& body) {
  const launch::Script script = script_of(body);
  launch::SimulatorBackend backend(launch::SimulatorOptions{32, true, true, 100'000'000, nullptr, 4, true, false});
  const frontend::Program& program = backend.program(script, script.pipelines.front());
  size_t stores = 0, predicated = 0;
  for (const frontend::Instruction& in : program.instructions)
    if (static_cast<spv::Op>(in.opcode) == spv::Op::OpStore) {
      ++stores;
      predicated += in.operand_count == 4;
    }
  return {stores, predicated};
}

TEST(TimingFlattening, AStoreOfAShrinkingWordIsPredicatedOnTheLanesThatWrite) {
  // APSP's relaxation: the word is written only where it shrinks.
  const std::string relax =
      "shared uint s[32];\n"
      "void main() { uint i = gl_LocalInvocationID.x; s[i] = buf.v[i]; barrier(); uint t = buf.v[i ^ 1u];\n"
      "  if (t < s[i]) s[i] = t;\n"
      "  barrier(); buf.v[i] = s[i ^ 2u]; }";
  expect_flattened(script_of(relax));
  // The buffer store and the first shared one write every lane.
  EXPECT_EQ(count_predicated_stores(relax), std::make_pair(size_t(3), size_t(1)));
  // Both sides writing the word back stay a branch (the second write-back
  // would undo the first), and the results are right.
  const launch::Script both = script_of(
      "shared uint s[32];\n"
      "void main() { uint i = gl_LocalInvocationID.x; s[i] = buf.v[i]; barrier(); uint t = buf.v[i ^ 1u];\n"
      "  if (t < s[i]) s[i] = t; else s[i] = t + 1u;\n"
      "  barrier(); buf.v[i] = s[i ^ 2u]; }");
  EXPECT_GE(predict(both, load_device_model("h100"), {}).counters.branches, 1);
  EXPECT_EQ(run_as_compiled(both, 32, 4, true), run_as_compiled(both, 32, 0, false));
  // Where no word shrinks no lane writes, and the store is still a shared
  // one: one shared store before the relaxation, one for it, one buffer store.
  const launch::Script none_shrink = script_of(
      "shared uint s[32];\n"
      "void main() { uint i = gl_LocalInvocationID.x; s[i] = buf.v[i]; barrier(); uint t = s[i] + 1u;\n"
      "  if (t < s[i]) s[i] = t;\n"
      "  barrier(); buf.v[i] = s[i ^ 2u]; }");
  const Prediction none = predict(none_shrink, load_device_model("h100"), {});
  EXPECT_EQ(none.counters.shared_store_requests, 2);
  EXPECT_EQ(none.counters.global_store_requests, 1);
  // Written back after a barrier the word may have changed: every lane writes.
  EXPECT_EQ(count_predicated_stores(
                "shared uint s[32];\n"
                "void main() { uint i = gl_LocalInvocationID.x; s[i] = buf.v[i]; barrier(); uint old = s[i];\n"
                "  barrier(); s[i] = old > 3u ? 3u : old; barrier(); buf.v[i] = s[i ^ 2u]; }"),
            std::make_pair(size_t(3), size_t(0)));
}

TEST(TimingFusion, ALogicResultComparedWithZeroIsOneInstruction) {
  // Ballot32's `(row & (1u << k)) != 0u`: a LOP3 that writes the predicate.
  const auto [total, folded] = count_fused(
      "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[i];\n"
      "  buf.v[i] = ((x & 4u) != 0u) ? 1u : 2u; }",
      {spv::Op::OpINotEqual});
  EXPECT_EQ(total, 1u);
  EXPECT_EQ(folded, 1u);
}

TEST(TimingClasses, IntegerArithmeticWaitsTheIntegerLatency) {
  // A chain of 64 dependent integer adds: SPIR-V numbers OpIAdd between
  // OpFNegate and OpFAdd, and it is no float operation.
  const launch::Script script = script_of(
      "void main() { uint i = gl_LocalInvocationID.x; uint x = buf.v[i], y = buf.v[1];\n"
      "  for (uint k = 0u; k < 64u; ++k) x = (x + y) - (k & 1u);\n  buf.v[i] = x; }");
  DeviceModel device = load_device_model("h100");
  const Prediction base = predict(script, device, {});
  device.latency_cycles.float_op += 20;
  EXPECT_EQ(predict(script, device, {}).compute_seconds, base.compute_seconds);
  device.latency_cycles.int_op += 20;
  EXPECT_GT(predict(script, device, {}).compute_seconds, base.compute_seconds + 64 * 20 / (device.clock_mhz * 1e6));
}

// The cycles a chain of 64 dependent subgroup reductions of `type` (one
// subgroup) adds when `raise` adds 10 cycles to a latency of `device`.
double cycles_per_reduction_when_raised(const std::string& type, DeviceModel device,
                                        const std::function<void(DeviceModel&)>& raise) {
  const launch::Script script = script_of(
      "#extension GL_KHR_shader_subgroup_arithmetic : enable\n"
      "void main() { uint i = gl_LocalInvocationID.x; " + type + " x = " + type + "(buf.v[i]);\n"
      "  for (uint k = 0u; k < 64u; ++k) x = subgroupAdd(x) * " + type + "(3);\n  buf.v[i] = uint(x); }");
  const double base = predict(script, device, {}).compute_seconds;
  raise(device);
  return (predict(script, device, {}).compute_seconds - base) * device.clock_mhz * 1e6 / 64;
}

TEST(TimingSubgroup, AFloatReductionIsAButterflyOfShufflesAndAnIntegerOneIsOneReduxOnTheH100) {
  const DeviceModel h100 = load_device_model("h100");
  ASSERT_GT(h100.latency_cycles.subgroup_reduce, 0u);
  const auto raise_shuffle = [](DeviceModel& d) { d.latency_cycles.shuffle += 10; };
  const auto raise_float = [](DeviceModel& d) { d.latency_cycles.float_op += 10; };
  const auto raise_reduce = [](DeviceModel& d) { d.latency_cycles.subgroup_reduce += 10; };
  // 32 lanes: five steps of a shuffle, a select and an add each (and the multiply after).
  const auto raise_int = [](DeviceModel& d) { d.latency_cycles.int_op += 10; };
  EXPECT_NEAR(cycles_per_reduction_when_raised("float", h100, raise_shuffle), 5 * 10, 1);
  EXPECT_NEAR(cycles_per_reduction_when_raised("float", h100, raise_float), 6 * 10, 1);
  EXPECT_NEAR(cycles_per_reduction_when_raised("float", h100, raise_int), 5 * 10, 1);
  EXPECT_NEAR(cycles_per_reduction_when_raised("float", h100, raise_reduce), 0, 1e-9);
  // A uint one is one instruction: its latency, not the shuffles'.
  EXPECT_NEAR(cycles_per_reduction_when_raised("uint", h100, raise_reduce), 10, 1);
  EXPECT_NEAR(cycles_per_reduction_when_raised("uint", h100, raise_shuffle), 0, 1e-9);
  // Without one (the RTX 2080 Ti, Turing: no REDUX), a butterfly too.
  const DeviceModel turing = load_device_model("rtx2080ti");
  ASSERT_EQ(turing.latency_cycles.subgroup_reduce, 0u);
  EXPECT_NEAR(cycles_per_reduction_when_raised("uint", turing, raise_shuffle), 5 * 10, 1);
}

}  // namespace
}  // namespace lanelab::timing
