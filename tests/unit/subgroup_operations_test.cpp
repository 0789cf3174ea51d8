// Every subgroup operation at W = 4, 8, 32 and 64, with all lanes active and
// with divergent subsets, against expectations computed here by plain loops
// over the lanes of each subgroup. Only active lanes take part: reductions and
// scans skip inactive lanes, a ballot has their bits clear, and reading a
// value from an inactive or non-existent lane (broadcast, shuffle) gives 0.
#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/lane_mask.h"
#include "tests/unit/test_kernel.h"

namespace lanelab::unit {
namespace {

using core::LaneMask;

constexpr uint32_t kInvocations = 64;  // one workgroup: 64 / W subgroups
constexpr uint32_t kColumns = 64;      // output words per invocation
constexpr uint32_t kUnwritten = 0xDEADBEEFu;

// One invocation's inputs, as the kernel's `Lane` struct lays them out.
struct LaneInput {
  uint32_t enabled;  // runs the operations (inside `if (enabled)`)
  uint32_t u;
  int32_t s;
  float f;
  uint32_t bits;
  uint32_t p;
  uint32_t index;  // a lane of the same subgroup, < W
  uint32_t pad;
};
static_assert(sizeof(LaneInput) == 32);

// Uniform operands (the same in every lane).
constexpr uint32_t kInverseBallotLow = 0xA5A53C3Cu, kInverseBallotHigh = 0x0F0FF0F0u;
constexpr uint32_t kXorMask = 3, kUpDelta = 1, kDownDelta = 2;

enum class Subset { AllLanes, OddLanes, EveryThirdInvocation };

bool in_subset(Subset subset, uint32_t invocation) {
  switch (subset) {
    case Subset::AllLanes: return true;
    case Subset::OddLanes: return invocation % 2 == 1;
    case Subset::EveryThirdInvocation: return invocation % 3 == 0;
  }
  return false;
}

// One subgroup as the reference sees it.
struct SubgroupLanes {
  uint32_t width;
  LaneMask active;
  const LaneInput* lane;  // lane[l], l < width

  bool is_active(uint32_t l) const { return l < width && core::lane_in(active, l); }
  uint32_t first() const { return uint32_t(std::countr_zero(active)); }
  // What a lane reads from lane `source`: 0 when that lane is inactive or absent.
  template <class Field>
  uint32_t read(uint32_t source, Field field) const {
    return is_active(source) ? std::bit_cast<uint32_t>(lane[source].*field) : 0u;
  }
  LaneMask ballot_p() const {
    LaneMask bits = 0;
    for (uint32_t l = 0; l < width; ++l)
      if (is_active(l) && lane[l].p) bits |= LaneMask{1} << l;
    return bits;
  }
};

using Reference = std::function<uint32_t(const SubgroupLanes&, uint32_t lane)>;

// One output word: the GLSL expression computing it and its hand computation.
struct Column {
  std::string name;
  std::string glsl;
  Reference expected;
};

const char* const kPrologue = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 64) in;
struct Lane { uint enabled; uint u; int s; float f; uint bits; uint p; uint index; uint pad; };
layout(std430, set = 0, binding = 0) readonly buffer Inputs { Lane lane[]; } inputs;
layout(std430, set = 0, binding = 1) readonly buffer Uniforms { uint k[]; } uniforms;
layout(std430, set = 0, binding = 2) buffer Outputs { uint o[]; } outputs;
void put(uint column, uint value) { outputs.o[gl_LocalInvocationIndex * 64u + column] = value; }
void main() {
  Lane x = inputs.lane[gl_LocalInvocationIndex];
  uint u = x.u;
  int s = x.s;
  float f = x.f;
  uint bits = x.bits;
  bool p = x.p != 0u;
  if (x.enabled != 0u) {
)";

std::vector<LaneInput> make_inputs(uint32_t width, Subset subset) {
  std::vector<LaneInput> inputs(kInvocations);
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  const float floats[] = {0.5f, 1.0f, 2.0f, -1.0f, -2.0f, 0.25f, 4.0f, -0.5f};
  for (uint32_t i = 0; i < kInvocations; ++i) {
    LaneInput& in = inputs[i];
    in.enabled = in_subset(subset, i);
    in.u = (i / 8) % 3 == 0 ? 3u : 1u + next() % 5;     // some subgroups all equal
    in.s = int32_t(next() % 201) - 100;
    in.f = floats[next() % 8];
    in.bits = next() * 2654435761u ^ next();
    in.p = (i / 4) % 5 == 1 ? 1u : next() % 3 == 0;   // some subgroups all true
    in.index = next() % width;
    in.pad = 0;
  }
  return inputs;
}

class SubgroupOperations : public ::testing::TestWithParam<std::tuple<uint32_t, Subset>> {
 protected:
  uint32_t width() const { return std::get<0>(GetParam()); }
  Subset subset() const { return std::get<1>(GetParam()); }

  // Runs the columns as one kernel and compares every word of every invocation.
  void check(const std::string& setup, const std::vector<Column>& columns) {
    ASSERT_LE(columns.size(), kColumns);
    std::string source = kPrologue + setup + "\n";
    for (size_t c = 0; c < columns.size(); ++c)
      source += "    put(" + std::to_string(c) + "u, " + columns[c].glsl + ");\n";
    source += "  }\n}\n";
    const std::vector<LaneInput> inputs = make_inputs(width(), subset());
    const std::vector<uint32_t> uniforms = {kInverseBallotLow, kInverseBallotHigh, kXorMask, kUpDelta, kDownDelta};
    auto result = run_glsl(source, width(),
                           {buffer_of(inputs), buffer_of(uniforms), words_buffer(kInvocations * kColumns, kUnwritten)});
    const std::vector<uint32_t> out = result.uints(2);

    for (size_t c = 0; c < columns.size(); ++c) {
      int mismatches = 0;
      for (uint32_t i = 0; i < kInvocations && mismatches < 3; ++i) {
        const uint32_t group = i / width(), lane = i % width();
        SubgroupLanes sg{width(), 0, &inputs[group * width()]};
        for (uint32_t l = 0; l < width(); ++l)
          if (inputs[group * width() + l].enabled) sg.active |= LaneMask{1} << l;
        const uint32_t expected = inputs[i].enabled ? columns[c].expected(sg, lane) : kUnwritten;
        const uint32_t actual = out[i * kColumns + c];
        if (actual != expected) {
          ++mismatches;
          ADD_FAILURE() << columns[c].name << " (" << columns[c].glsl << ") at W=" << width() << ", subgroup "
                        << group << ", lane " << lane << " (active lanes " << core::lane_list(sg.active)
                        << "): expected " << expected << " (0x" << std::hex << expected << "), got " << std::dec
                        << actual << " (0x" << std::hex << actual << ")";
        }
      }
    }
  }
};

// --- Votes -----------------------------------------------------------------

TEST_P(SubgroupOperations, ElectAllAnyAllEqual) {
  auto all_active = [](const SubgroupLanes& sg, auto predicate) {
    for (uint32_t l = 0; l < sg.width; ++l)
      if (sg.is_active(l) && !predicate(l)) return 0u;
    return 1u;
  };
  check("", {
      {"elect", "uint(subgroupElect())", [](const SubgroupLanes& sg, uint32_t l) { return uint32_t(l == sg.first()); }},
      {"all", "uint(subgroupAll(p))",
       [&](const SubgroupLanes& sg, uint32_t) { return all_active(sg, [&](uint32_t l) { return sg.lane[l].p != 0; }); }},
      {"any", "uint(subgroupAny(p))",
       [](const SubgroupLanes& sg, uint32_t) { return uint32_t(sg.ballot_p() != 0); }},
      {"allEqual uint", "uint(subgroupAllEqual(u))",
       [&](const SubgroupLanes& sg, uint32_t) {
         return all_active(sg, [&](uint32_t l) { return sg.lane[l].u == sg.lane[sg.first()].u; });
       }},
      {"allEqual int", "uint(subgroupAllEqual(s))",
       [&](const SubgroupLanes& sg, uint32_t) {
         return all_active(sg, [&](uint32_t l) { return sg.lane[l].s == sg.lane[sg.first()].s; });
       }},
      {"allEqual bool", "uint(subgroupAllEqual(u < 100u))", [](const SubgroupLanes&, uint32_t) { return 1u; }},
  });
}

// --- Ballots ---------------------------------------------------------------

TEST_P(SubgroupOperations, BallotAndBallotQueries) {
  const uint64_t inverse = uint64_t(kInverseBallotHigh) << 32 | kInverseBallotLow;
  auto below = [](uint32_t n) { return n >= 64 ? ~LaneMask{0} : (LaneMask{1} << n) - 1; };
  // The ballot of p with the first active lane's bit forced on, never empty.
  auto forced = [](const SubgroupLanes& sg) { return sg.ballot_p() | LaneMask{1} << sg.first(); };
  check(R"(
    uvec4 b = subgroupBallot(p);
    bool first = subgroupElect();
    uvec4 c = subgroupBallot(p || first);)",
        {
            {"ballot.x", "b.x", [](const SubgroupLanes& sg, uint32_t) { return uint32_t(sg.ballot_p()); }},
            {"ballot.y", "b.y", [](const SubgroupLanes& sg, uint32_t) { return uint32_t(sg.ballot_p() >> 32); }},
            {"ballot.z", "b.z", [](const SubgroupLanes&, uint32_t) { return 0u; }},
            {"ballot.w", "b.w", [](const SubgroupLanes&, uint32_t) { return 0u; }},
            {"inverseBallot", "uint(subgroupInverseBallot(uvec4(uniforms.k[0], uniforms.k[1], 0u, 0u)))",
             [&](const SubgroupLanes&, uint32_t l) { return uint32_t((inverse >> l) & 1); }},
            {"ballotBitExtract", "uint(subgroupBallotBitExtract(b, x.index))",
             [](const SubgroupLanes& sg, uint32_t l) { return uint32_t((sg.ballot_p() >> sg.lane[l].index) & 1); }},
            {"ballotBitCount", "subgroupBallotBitCount(b)",
             [](const SubgroupLanes& sg, uint32_t) { return core::lane_count(sg.ballot_p()); }},
            {"ballotInclusiveBitCount", "subgroupBallotInclusiveBitCount(b)",
             [&](const SubgroupLanes& sg, uint32_t l) { return core::lane_count(sg.ballot_p() & below(l + 1)); }},
            {"ballotExclusiveBitCount", "subgroupBallotExclusiveBitCount(b)",
             [&](const SubgroupLanes& sg, uint32_t l) { return core::lane_count(sg.ballot_p() & below(l)); }},
            {"ballotFindLSB", "subgroupBallotFindLSB(c)",
             [&](const SubgroupLanes& sg, uint32_t) { return uint32_t(std::countr_zero(forced(sg))); }},
            {"ballotFindMSB", "subgroupBallotFindMSB(c)",
             [&](const SubgroupLanes& sg, uint32_t) { return 63u - uint32_t(std::countl_zero(forced(sg))); }},
        });
}

// --- Broadcasts and shuffles -----------------------------------------------

TEST_P(SubgroupOperations, BroadcastAndShuffles) {
  check("", {
      {"broadcast uint from lane 1", "subgroupBroadcast(u, 1u)",
       [](const SubgroupLanes& sg, uint32_t) { return sg.read(1, &LaneInput::u); }},
      {"broadcast int from lane 0", "uint(subgroupBroadcast(s, 0u))",
       [](const SubgroupLanes& sg, uint32_t) { return sg.read(0, &LaneInput::s); }},
      {"broadcast float from lane 3", "floatBitsToUint(subgroupBroadcast(f, 3u))",
       [](const SubgroupLanes& sg, uint32_t) { return sg.read(3, &LaneInput::f); }},
      {"broadcastFirst uint", "subgroupBroadcastFirst(u)",
       [](const SubgroupLanes& sg, uint32_t) { return sg.read(sg.first(), &LaneInput::u); }},
      {"broadcastFirst float", "floatBitsToUint(subgroupBroadcastFirst(f))",
       [](const SubgroupLanes& sg, uint32_t) { return sg.read(sg.first(), &LaneInput::f); }},
      {"shuffle uint", "subgroupShuffle(u, x.index)",
       [](const SubgroupLanes& sg, uint32_t l) { return sg.read(sg.lane[l].index, &LaneInput::u); }},
      {"shuffle int", "uint(subgroupShuffle(s, x.index))",
       [](const SubgroupLanes& sg, uint32_t l) { return sg.read(sg.lane[l].index, &LaneInput::s); }},
      {"shuffleXor", "subgroupShuffleXor(u, uniforms.k[2])",
       [](const SubgroupLanes& sg, uint32_t l) { return sg.read(l ^ kXorMask, &LaneInput::u); }},
      {"shuffleXor float by 1", "floatBitsToUint(subgroupShuffleXor(f, 1u))",
       [](const SubgroupLanes& sg, uint32_t l) { return sg.read(l ^ 1u, &LaneInput::f); }},
      {"shuffleUp", "subgroupShuffleUp(u, uniforms.k[3])",
       [](const SubgroupLanes& sg, uint32_t l) { return l < kUpDelta ? 0u : sg.read(l - kUpDelta, &LaneInput::u); }},
      {"shuffleDown", "subgroupShuffleDown(u, uniforms.k[4])",
       [](const SubgroupLanes& sg, uint32_t l) { return sg.read(l + kDownDelta, &LaneInput::u); }},
  });
}

// --- Reductions and scans --------------------------------------------------

enum class Scan { Reduce, Inclusive, Exclusive };

// The operation folded in lane order over the active lanes the scan covers.
template <class T, class Value, class Op>
T fold(const SubgroupLanes& sg, uint32_t lane, Scan scan, T identity, Value value, Op op) {
  T running = identity;
  for (uint32_t l = 0; l < sg.width; ++l) {
    if (!sg.is_active(l)) continue;
    if ((scan == Scan::Inclusive && l > lane) || (scan == Scan::Exclusive && l >= lane)) break;
    running = op(running, value(sg.lane[l]));
  }
  return running;
}

// Reduce, inclusive and exclusive scan of `operation` ("Add", ...) over
// `operand`; `wrap` turns the GLSL result into a uint.
template <class T, class Value, class Op>
std::vector<Column> arithmetic_columns(const std::string& operation, const std::string& operand,
                                       const std::string& wrap, T identity, Value value, Op op) {
  std::vector<Column> columns;
  const std::pair<std::string, Scan> scans[] = {
      {"", Scan::Reduce}, {"Inclusive", Scan::Inclusive}, {"Exclusive", Scan::Exclusive}};
  for (const auto& [prefix, scan] : scans) {
    columns.push_back({"subgroup" + prefix + operation + " of " + operand,
                       wrap + "(subgroup" + prefix + operation + "(" + operand + "))",
                       [=](const SubgroupLanes& sg, uint32_t lane) {
                         return std::bit_cast<uint32_t>(fold(sg, lane, scan, identity, value, op));
                       }});
  }
  return columns;
}

void append(std::vector<Column>& to, std::vector<Column> from) { to.insert(to.end(), from.begin(), from.end()); }

TEST_P(SubgroupOperations, IntegerReductionsAndScans) {
  auto s = [](const LaneInput& in) { return in.s; };
  auto s_bits = [](const LaneInput& in) { return uint32_t(in.s); };
  auto u = [](const LaneInput& in) { return in.u; };
  std::vector<Column> columns;
  // Add and Mul wrap modulo 2^32, whatever the signedness.
  append(columns, arithmetic_columns("Add", "s", "uint", 0u, s_bits, [](uint32_t a, uint32_t b) { return a + b; }));
  append(columns, arithmetic_columns("Mul", "s", "uint", 1u, s_bits, [](uint32_t a, uint32_t b) { return a * b; }));
  append(columns, arithmetic_columns("Mul", "u", "uint", 1u, u, [](uint32_t a, uint32_t b) { return a * b; }));
  append(columns, arithmetic_columns("Min", "s", "uint", std::numeric_limits<int32_t>::max(), s,
                                     [](int32_t a, int32_t b) { return std::min(a, b); }));
  append(columns, arithmetic_columns("Max", "s", "uint", std::numeric_limits<int32_t>::min(), s,
                                     [](int32_t a, int32_t b) { return std::max(a, b); }));
  append(columns, arithmetic_columns("Min", "u", "uint", std::numeric_limits<uint32_t>::max(), u,
                                     [](uint32_t a, uint32_t b) { return std::min(a, b); }));
  append(columns, arithmetic_columns("Max", "u", "uint", 0u, u, [](uint32_t a, uint32_t b) { return std::max(a, b); }));
  check("", columns);
}

TEST_P(SubgroupOperations, FloatReductionsAndScans) {
  auto f = [](const LaneInput& in) { return in.f; };
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<Column> columns;
  append(columns, arithmetic_columns("Add", "f", "floatBitsToUint", 0.0f, f, [](float a, float b) { return a + b; }));
  append(columns, arithmetic_columns("Mul", "f", "floatBitsToUint", 1.0f, f, [](float a, float b) { return a * b; }));
  append(columns, arithmetic_columns("Min", "f", "floatBitsToUint", inf, f,
                                     [](float a, float b) { return std::min(a, b); }));
  append(columns, arithmetic_columns("Max", "f", "floatBitsToUint", -inf, f,
                                     [](float a, float b) { return std::max(a, b); }));
  check("", columns);
}

TEST_P(SubgroupOperations, BitwiseAndLogicalReductionsAndScans) {
  auto bits = [](const LaneInput& in) { return in.bits; };
  auto p = [](const LaneInput& in) { return in.p; };
  std::vector<Column> columns;
  append(columns, arithmetic_columns("And", "bits", "", ~0u, bits, [](uint32_t a, uint32_t b) { return a & b; }));
  append(columns, arithmetic_columns("Or", "bits", "", 0u, bits, [](uint32_t a, uint32_t b) { return a | b; }));
  append(columns, arithmetic_columns("Xor", "bits", "", 0u, bits, [](uint32_t a, uint32_t b) { return a ^ b; }));
  append(columns, arithmetic_columns("And", "p", "uint", 1u, p, [](uint32_t a, uint32_t b) { return a & b; }));
  append(columns, arithmetic_columns("Or", "p", "uint", 0u, p, [](uint32_t a, uint32_t b) { return a | b; }));
  append(columns, arithmetic_columns("Xor", "p", "uint", 0u, p, [](uint32_t a, uint32_t b) { return a ^ b; }));
  check("", columns);
}

std::string subset_name(Subset subset);
void PrintTo(Subset subset, std::ostream* os) { *os << subset_name(subset); }

std::string subset_name(Subset subset) {
  switch (subset) {
    case Subset::AllLanes: return "AllLanes";
    case Subset::OddLanes: return "OddLanes";
    case Subset::EveryThirdInvocation: return "EveryThirdInvocation";
  }
  return "";
}

INSTANTIATE_TEST_SUITE_P(Widths, SubgroupOperations,
                         ::testing::Combine(::testing::Values(4u, 8u, 32u, 64u),
                                            ::testing::Values(Subset::AllLanes, Subset::OddLanes,
                                                              Subset::EveryThirdInvocation)),
                         [](const auto& info) {
                           return "W" + std::to_string(std::get<0>(info.param)) + "_" +
                                  subset_name(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace lanelab::unit
