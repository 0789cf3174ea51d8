#include "kernels/micro/micro_workload.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "kernels/script_building.h"
#include "sim/common/error.h"

namespace lanelab::kernels {

namespace {

// An integer multiply-add (one IMAD on NVIDIA) and a float fma whose chain
// settles on 2.0 exactly, so that both chains can be checked on the CPU.
constexpr uint32_t kMulU = 1664525u, kAddU = 1013904223u;
constexpr float kMulF = 0.5f, kAddF = 1.0f;
constexpr uint32_t kLoadingWorkgroupSize = 64;
// workgroup_size's default, which the bandwidth benchmarks take for their 256.
constexpr uint32_t kDefaultWorkgroupSize = 32;
constexpr uint32_t kMaxGroups = 65535;
// bank_throughput's loads, in shared_throughput.comp's ACCESS order.
const std::vector<std::string> kSharedAccesses = {"uint", "uvec4", "neighbours", "store", "broadcast",
                                                   "broadcast_conflict"};

// dispatch_switch's pipelines, taken in turn as APSP takes its three phases'.
constexpr uint32_t kSwitchedPipelines = 3;
// The empty kernel's benches (Bench::variant): one dispatch, or a sequence of
// dependent ones of one pipeline, of kSwitchedPipelines in turn, of one
// that takes push constants (empty_push.comp), of one whose lanes read them
// (empty_push_read.comp), or of one whose lanes each read and write back a
// word (copy_back.comp); or one dispatch whose lanes read a uniform buffer
// (empty_uniform_read.comp), or that binds it and reads nothing.
enum EmptyVariant : uint32_t {
  kLone = 0, kSequence = 1, kSwitchedSequence = 2, kPushedSequence = 3, kCopiedSequence = 4, kPushReadSequence = 5,
  kUniformRead = 6, kUniformUnread = 7
};

// empty_uniform_read.comp's two benches: a uniform buffer bound, read or not.
bool binds_uniform_buffer(uint32_t variant) { return variant == kUniformRead || variant == kUniformUnread; }
// One dispatch, not a sequence of dependent ones.
bool lone_dispatch(uint32_t variant) { return variant == kLone || binds_uniform_buffer(variant); }

enum class Kind {
  AluLatency, AluThroughput, Shared, SharedThroughput, Local, Subgroup, SubgroupThroughput, Barrier, Chase,
  Bandwidth, Empty, Loading, Branch
};

struct Bench {
  std::string name;
  Kind kind;
  uint32_t variant;  // the shader's OP (ALU, subgroup); empty: an EmptyVariant; bandwidth: 1 rotated
};

const std::vector<Bench> kBenches = {
    {"alu_latency_int", Kind::AluLatency, 0},     {"alu_latency_float", Kind::AluLatency, 1},
    {"alu_latency_add_xor", Kind::AluLatency, 2},   {"alu_latency_add_min", Kind::AluLatency, 3},
    {"alu_latency_remainder", Kind::AluLatency, 4},
    {"alu_throughput_int", Kind::AluThroughput, 0}, {"alu_throughput_float", Kind::AluThroughput, 1},
    {"alu_throughput_logic", Kind::AluThroughput, 2}, {"alu_throughput_add_min", Kind::AluThroughput, 3},
    {"alu_throughput_min_max", Kind::AluThroughput, 4}, {"alu_throughput_remainder", Kind::AluThroughput, 5},
    {"shared_latency", Kind::Shared, 0},           {"bank_conflict", Kind::Shared, 0},
    {"bank_throughput", Kind::SharedThroughput, 0}, {"local_latency", Kind::Local, 0},
    {"shuffle", Kind::Subgroup, 0},                {"ballot", Kind::Subgroup, 1},
    {"reduce", Kind::Subgroup, 2},                 {"shuffle_throughput", Kind::SubgroupThroughput, 0},
    {"ballot_throughput", Kind::SubgroupThroughput, 1}, {"barrier", Kind::Barrier, 0},
    {"barrier_throughput", Kind::Barrier, 0},
    {"pointer_chase", Kind::Chase, 0},             {"bandwidth", Kind::Bandwidth, 0},
    {"bandwidth_rotated", Kind::Bandwidth, 1},
    {"empty", Kind::Empty, kLone},                 {"loading", Kind::Loading, 1},
    {"dispatch_gap", Kind::Empty, kSequence},      {"dispatch_switch", Kind::Empty, kSwitchedSequence},
    {"dispatch_push", Kind::Empty, kPushedSequence},   {"dispatch_copy", Kind::Empty, kCopiedSequence},
    {"dispatch_push_read", Kind::Empty, kPushReadSequence},
    {"empty_uniform_read", Kind::Empty, kUniformRead}, {"empty_uniform_unread", Kind::Empty, kUniformUnread},
    {"branch_throughput", Kind::Branch, 1},        {"branch_free_throughput", Kind::Branch, 0},
    {"branch_per_step_throughput", Kind::Branch, 2}, {"branch_one_side_throughput", Kind::Branch, 3},
    {"branch_one_side_heavy_throughput", Kind::Branch, 4},
};

struct Config {
  Bench bench;
  uint32_t iterations = 0, ways = 1, workgroups = 1, workgroup_size = kDefaultWorkgroupSize, lanes = 0, seed = 1;
  std::string access = "uint";  // bank_throughput: one of kSharedAccesses
  uint64_t bytes = 0;
  uint64_t steps() const { return uint64_t(iterations) * kMicroStepsPerIteration; }
  uint32_t total_lanes() const { return workgroups * workgroup_size; }
};

Config read_config(const Params& params) {
  Config c;
  const std::string bench = param_choice(params, "bench", micro_bench_names(), "micro");
  for (const auto& b : kBenches)
    if (b.name == bench) c.bench = b;
  c.iterations = param_uint(params, "iterations", "micro");
  c.ways = param_uint(params, "ways", "micro");
  c.workgroups = param_uint(params, "workgroups", "micro");
  c.workgroup_size = param_uint(params, "workgroup_size", "micro");
  c.lanes = param_uint(params, "lanes", "micro");
  c.bytes = param_uint(params, "bytes", "micro");
  c.seed = param_uint(params, "seed", "micro");
  c.access = param_choice(params, "access", kSharedAccesses, "micro");
  if (c.iterations == 0) throw Error("micro: iterations must be at least 1");
  if (c.workgroups == 0 || c.workgroups > kMaxGroups) throw Error("micro: workgroups must be 1..65535");
  if (c.workgroup_size == 0 || c.workgroup_size > 1024) throw Error("micro: workgroup_size must be 1..1024");
  if (c.bench.name == "shared_latency") c.ways = 1;
  if ((c.bench.kind == Kind::Shared || c.bench.kind == Kind::SharedThroughput) &&
      (c.ways == 0 || c.ways > 32 || (c.ways & (c.ways - 1)) != 0))
    throw Error("micro: ways=" + std::to_string(c.ways) + " must be a power of two from 1 to 32");
  if ((c.bench.kind == Kind::Subgroup || c.bench.kind == Kind::SubgroupThroughput) && c.workgroup_size % 2 != 0)
    throw Error("micro: the subgroup benchmarks pair lanes 2k and 2k+1; workgroup_size must be even");
  if (c.bench.kind == Kind::Local && (c.bytes < 4 || c.bytes > 16384 || (c.bytes & (c.bytes - 1)) != 0))
    throw Error("micro: local_latency bytes (the private array) must be a power of two from 4 to 16384");
  if (c.bench.kind == Kind::Chase) {
    if (c.bytes < 2 * kMicroChaseLineBytes || c.bytes % kMicroChaseLineBytes != 0)
      throw Error("micro: pointer_chase bytes must be a multiple of 128 and at least 256");
    c.workgroups = c.workgroup_size = 1;
  }
  if (c.bench.kind == Kind::Bandwidth) {
    if (c.bytes < 16 || c.bytes % 16 != 0) throw Error("micro: bandwidth bytes must be a multiple of 16");
    if (c.bytes / 16 > 0xffffffffull) throw Error("micro: bandwidth bytes must be below 64 GiB");
    // Its workgroups are always 256 lanes; the parameter's default stands
    // for that, as the calibration's records have it, and any other size is
    // refused rather than run as 256 under its name.
    if (c.workgroup_size != kDefaultWorkgroupSize && c.workgroup_size != kMicroBandwidthWorkgroupSize)
      throw Error("micro: bandwidth runs workgroups of " + std::to_string(kMicroBandwidthWorkgroupSize) +
                  " lanes; workgroup_size=" + std::to_string(c.workgroup_size) + " is not one it runs");
    c.workgroup_size = kMicroBandwidthWorkgroupSize;
  }
  if (c.bench.kind == Kind::Loading) {
    if (c.lanes == 0) throw Error("micro: loading needs lanes >= 1");
    c.workgroup_size = std::min(c.lanes, kLoadingWorkgroupSize);
    if (c.lanes % c.workgroup_size != 0) throw Error("micro: loading lanes must be a multiple of 64 (or below 64)");
    c.workgroups = c.lanes / c.workgroup_size;
    if (c.workgroups > kMaxGroups) throw Error("micro: loading lanes must be at most 64 x 65535");
  }
  return c;
}

// x -> x * kMulU + kAddU applied n times, as one affine map (square and multiply).
uint32_t lcg_steps(uint32_t x, uint64_t n) {
  uint32_t mul = 1, add = 0, step_mul = kMulU, step_add = kAddU;
  for (; n; n >>= 1) {
    if (n & 1) {
      mul *= step_mul;
      add = add * step_mul + step_add;
    }
    step_add = step_add * step_mul + step_add;
    step_mul *= step_mul;
  }
  return x * mul + add;
}

// x -> (x + kMulU) ^ kAddU, n times.
uint32_t add_xor_steps(uint32_t x, uint64_t n) {
  for (; n; --n) x = (x + kMulU) ^ kAddU;
  return x;
}

// x -> kAddU % (x | 1), n times; x never grows, so the chain soon stays on
// one value.
uint32_t remainder_steps(uint32_t x, uint64_t n) {
  for (uint32_t next; n; --n, x = next)
    if ((next = kAddU % (x | 1u)) == x) break;
  return x;
}

// x -> (x >> (kMulU & 31)) ^ kAddU, n times; from the third step on x has
// shifted out and the chain stays on one value.
uint32_t shift_xor_steps(uint32_t x, uint64_t n) {
  for (uint32_t next; n; --n, x = next)
    if ((next = (x >> (kMulU & 31u)) ^ kAddU) == x) break;
  return x;
}

// Signed x -> min(x + kMulU, kAddU), n times: x + n kMulU until it reaches kAddU.
uint32_t add_min_steps(uint32_t x, uint64_t n) {
  const int64_t reached = int64_t(int32_t(x)) + int64_t(std::min<uint64_t>(n, kAddU)) * kMulU;
  return n == 0 ? x : uint32_t(std::min<int64_t>(reached, kAddU));
}

// Signed x -> max(min(x, kAddU), kMulU), n times: x clamped, from the first step on.
uint32_t min_max_steps(uint32_t x, uint64_t n) {
  return n == 0 ? x : uint32_t(std::clamp<int64_t>(int32_t(x), kMulU, kAddU));
}

// y -> fma(y, 0.5, 1) n times; it reaches 2.0 exactly and stays there.
float fma_steps(float y, uint64_t n) {
  for (; n && y != 2.0f; --n) y = std::fma(y, kMulF, kAddF);
  return y;
}

uint32_t float_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

// Sattolo's algorithm: one random cycle through every line; the first word of
// a line holds the word index of the next line.
std::vector<uint32_t> chase_buffer(const Config& c) {
  const uint32_t words_per_line = kMicroChaseLineBytes / 4;
  const uint64_t lines = c.bytes / kMicroChaseLineBytes;
  std::vector<uint32_t> order(lines);
  for (uint64_t i = 0; i < lines; ++i) order[i] = uint32_t(i);
  std::mt19937_64 random(c.seed);
  for (uint64_t i = lines - 1; i > 0; --i) std::swap(order[i], order[random() % i]);
  std::vector<uint32_t> words(c.bytes / 4, 0);
  for (uint64_t i = 0; i < lines; ++i) words[uint64_t(order[i]) * words_per_line] = order[(i + 1) % lines] * words_per_line;
  return words;
}

// What each benchmark's `result` buffer must hold.
std::vector<uint32_t> expected_result(const Config& c) {
  const uint64_t steps = c.steps();
  std::vector<uint32_t> out;
  switch (c.bench.kind) {
    case Kind::AluLatency:
      for (uint32_t lane = 0; lane < c.total_lanes(); ++lane)
        out.push_back(c.bench.variant == 1   ? float_bits(fma_steps(float(lane), steps))
                      : c.bench.variant == 2 ? add_xor_steps(lane, steps)
                      : c.bench.variant == 3 ? add_min_steps(lane, steps)
                      : c.bench.variant == 4 ? remainder_steps(lane, steps)
                                             : lcg_steps(lane, steps));
      break;
    case Kind::AluThroughput:
    case Kind::Loading:
      for (uint32_t lane = 0; lane < c.total_lanes(); ++lane) {
        if (c.bench.variant == 1) {
          float sum = 0;
          for (uint32_t k = 0; k < 8; ++k) sum += fma_steps(float(lane) + float(k), steps / 8);
          out.push_back(float_bits(sum));
        } else {
          uint32_t x = 0;
          for (uint32_t k = 0; k < 8; ++k) {
            const uint32_t start = lane * 8 + k;
            if (c.bench.variant == 5)  // weighted, as the kernel's: a lane's chains often end equal
              x += (2 * k + 1) * remainder_steps(start, steps / 8);
            else
              x ^= c.bench.variant == 2   ? shift_xor_steps(start, steps / 8)
                   : c.bench.variant == 3 ? add_min_steps(start, steps / 8)
                   : c.bench.variant == 4 ? min_max_steps(start, steps / 8)
                                          : lcg_steps(start, steps / 8);
          }
          out.push_back(x);
        }
      }
      break;
    case Kind::Shared:
      for (uint32_t lane = 0; lane < c.total_lanes(); ++lane)
        out.push_back((lane % c.workgroup_size) * c.ways % kMicroSharedWords);
      break;
    case Kind::Local:  // words[i] = i: the chain stays on the lane's start
      for (uint32_t lane = 0; lane < c.total_lanes(); ++lane)
        out.push_back(uint32_t(lane % c.workgroup_size % (c.bytes / 4)));
      break;
    case Kind::SharedThroughput:
      for (uint32_t lane = 0; lane < c.total_lanes(); ++lane) {
        if (c.access == "store") {  // every word holds its index again
          out.push_back(uint32_t(bank_throughput_element(lane % c.workgroup_size, c.ways, true, 0)));
          continue;
        }
        const bool broadcast = c.access == "broadcast" || c.access == "broadcast_conflict";
        const bool words = c.access == "uint" || broadcast;
        uint32_t x = 0;
        for (uint64_t load = 0; load < steps; ++load) {
          const uint32_t element =
              uint32_t(broadcast ? bank_broadcast_element(lane, c.ways, c.access == "broadcast_conflict", load)
                                 : bank_throughput_element(lane % c.workgroup_size, c.ways, words, load));
          // A word holds its index; uvec4 q holds the words 4 q .. 4 q + 3.
          x ^= words ? element : (4 * element) ^ (4 * element + 1) ^ (4 * element + 2) ^ (4 * element + 3);
        }
        out.push_back(x);
      }
      break;
    case Kind::Subgroup:
      for (uint32_t lane = 0; lane < c.total_lanes(); ++lane)
        out.push_back(uint32_t((c.bench.variant == 2 ? 0 : lane) + steps));
      break;
    case Kind::SubgroupThroughput:  // four chains from lane + k, steps / 4 each (an even count: lanes swap back)
      for (uint32_t lane = 0; lane < c.total_lanes(); ++lane) {
        uint32_t x = 0;
        for (uint32_t k = 0; k < 4; ++k) x ^= uint32_t(lane + k + steps / 4);
        out.push_back(x);
      }
      break;
    case Kind::Barrier:
      for (uint32_t lane = 0; lane < c.total_lanes(); ++lane) {
        const uint32_t local = lane % c.workgroup_size;
        out.push_back(uint32_t((local + steps) % c.workgroup_size + steps));
      }
      break;
    case Kind::Chase: {
      const std::vector<uint32_t> words = chase_buffer(c);
      uint32_t x = 0;
      for (uint64_t s = 0; s < steps; ++s) x = words[x];
      out.push_back(x);
      break;
    }
    case Kind::Bandwidth: {
      const uint64_t vectors = c.bytes / 16, lanes = c.total_lanes(), passes = c.iterations;
      for (uint64_t lane = 0; lane < lanes; ++lane) {
        const uint64_t visits = vectors > lane ? (vectors - lane - 1) / lanes + 1 : 0;
        out.push_back(uint32_t(4 * visits * (passes + passes * (passes - 1) / 2)));
      }
      break;
    }
    case Kind::Empty:
      // dispatch_copy: every word written back plus one by each dispatch.
      if (c.bench.variant == kCopiedSequence) out.assign(c.total_lanes(), c.iterations);
      else out.assign(1, 0);
      break;
    case Kind::Branch:  // uniform_branch.comp: words_a[i] = i, words_b[i] = 3 i
      for (uint32_t lane = 0; lane < c.total_lanes(); ++lane) {
        const uint32_t local = lane % c.workgroup_size;
        const uint32_t workgroup = lane / c.workgroup_size;
        uint32_t x = 0;
        for (uint64_t step = 0; step < steps; ++step) {
          const uint32_t p = uint32_t((local + step * 32) % kMicroSharedWords), q = p ^ 16u;
          const uint32_t bit = c.bench.variant == 2 ? step % 4 : 0;
          // Variants 3 and 4: offset is 0, every workgroup takes the first side.
          const bool first_side = c.bench.variant == 0 || c.bench.variant >= 3 || ((workgroup >> bit) & 1) == 0;
          x ^= first_side ? 3 * p + q : p + 3 * q;
        }
        out.push_back(x);
      }
      break;
  }
  return out;
}

}  // namespace

uint64_t bank_throughput_element(uint32_t lane, uint32_t ways, bool words, uint64_t load) {
  // Each load moves every lane by 128 bytes: whole bank rows, the conflict kept.
  const uint64_t first = uint64_t(lane) * ways;
  return words ? (first + load * 32) % kMicroSharedWords : (first + load * 8) % (kMicroSharedWords / 4);
}

uint64_t bank_broadcast_element(uint32_t lane, uint32_t ways, bool one_bank, uint64_t load) {
  const uint32_t l = lane % 32, group = 32 / std::clamp(ways, 1u, 32u);
  const uint64_t first = one_bank ? uint64_t(l / group) * 32 : l % group;
  return (first + load * 32) % kMicroSharedWords;
}

const std::vector<std::string>& micro_bench_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const auto& b : kBenches) list.push_back(b.name);
    return list;
  }();
  return names;
}

std::string MicroWorkload::description() const {
  return "microbenchmarks that each isolate one device-model parameter: ALU latency and throughput, shared "
         "latency and bank conflicts, local-memory latency, shuffle/ballot/reduce latency and throughput, barrier, "
         "pointer chase, bandwidth (each pass from L1 where it holds the buffer's share, or rotated: from L2), "
         "empty dispatch, the gap between dependent dispatches (of one pipeline, of pipelines taken in turn, with "
         "push constants set or read), loading, a uniform branch";
}

std::vector<ParamSpec> MicroWorkload::params() const {
  std::string benches;
  for (const auto& b : kBenches) benches += (benches.empty() ? "" : " | ") + b.name;
  return {
      {"bench", "alu_latency_int", benches},
      {"iterations", "256",
       "loop iterations inside the kernel (16 steps each); bandwidth: passes over the buffer; dispatch_gap: "
       "dispatches of the empty kernel, each waiting for the one before; dispatch_switch: the same, through "
       "three pipelines of it in turn; dispatch_push: the same, with push constants set before each; "
       "dispatch_push_read: the same, every lane reading them; "
       "dispatch_copy: the same, each lane reading its word and writing it back plus one"},
      {"ways", "1", "bank_conflict, bank_throughput: lane l reads element l x ways (1, 2, 4 .. 32)"},
      {"access", "uint", "bank_throughput: uint | uvec4 | neighbours (the 4 uints of a uvec4, read one by one) | store (uint stores) | broadcast (ways lanes to a word) | broadcast_conflict (ways words in one bank, the lanes shared among them)"},
      {"bytes", "1048576",
       "pointer_chase: working set; bandwidth, bandwidth_rotated: buffer size; local_latency: the private array (4 to 16384)"},
      {"workgroups", "1",
       "workgroups of the dispatch (empty, alu_throughput_*, bandwidth, bank_throughput, *_throughput)"},
      {"workgroup_size", std::to_string(kDefaultWorkgroupSize),
       "lanes per workgroup (barrier: the size under study; bandwidth: always 256)"},
      {"lanes", "4096", "loading: lanes in the whole dispatch (64 per workgroup)"},
      {"seed", "1", "seed of the pointer-chase cycle"},
  };
}

launch::Script MicroWorkload::build(const Params& params) const {
  const Config c = read_config(params);
  launch::Script script;
  script.path = "workload:micro(" + c.bench.name + ")";
  std::string shader;
  launch::PipelineDecl pipeline;
  pipeline.name = "micro";
  pipeline.shader = "micro";
  pipeline.specializations = {spec_uint(0, c.workgroup_size), spec_uint(1, c.iterations)};
  std::string input = "constants";
  switch (c.bench.kind) {
    case Kind::AluLatency:
    case Kind::AluThroughput:
    case Kind::Loading: {
      shader = c.bench.kind == Kind::AluLatency ? "alu_latency" : "alu_throughput";
      pipeline.specializations.push_back(spec_uint(2, c.bench.variant));
      launch::BufferData constants = uint_buffer("constants", {kMulU, kAddU, float_bits(kMulF), float_bits(kAddF)});
      script.buffers["constants"] = constants;
      break;
    }
    case Kind::Shared:
      shader = "shared_chase";
      pipeline.specializations.push_back(spec_uint(2, c.ways));
      script.buffers["constants"] = uint_buffer("constants", {0});
      break;
    case Kind::SharedThroughput:
      shader = "shared_throughput";
      pipeline.specializations.push_back(spec_uint(2, c.ways));
      pipeline.specializations.push_back(
          spec_uint(3, uint32_t(std::find(kSharedAccesses.begin(), kSharedAccesses.end(), c.access) -
                                kSharedAccesses.begin())));
      script.buffers["constants"] = uint_buffer("constants", {0});
      break;
    case Kind::Branch:
      shader = "uniform_branch";
      pipeline.specializations.push_back(spec_uint(2, c.bench.variant));
      script.buffers["constants"] = uint_buffer("constants", {0});
      break;
    case Kind::Local:
      shader = "local_chase";
      pipeline.specializations.push_back(spec_uint(2, uint32_t(c.bytes / 4)));
      script.buffers["constants"] = uint_buffer("constants", {0});
      break;
    case Kind::Subgroup:
    case Kind::SubgroupThroughput:
      shader = c.bench.kind == Kind::Subgroup ? "subgroup_chain" : "subgroup_throughput";
      pipeline.specializations.push_back(spec_uint(2, c.bench.variant));
      script.buffers["constants"] = uint_buffer("constants", {0});
      break;
    case Kind::Barrier:
      shader = "barrier_chain";
      script.buffers["constants"] = uint_buffer("constants", {0});
      break;
    case Kind::Chase:
      shader = "pointer_chase";
      pipeline.specializations = {spec_uint(1, c.iterations)};
      input = "next";
      script.buffers["next"] = uint_buffer("next", chase_buffer(c));
      break;
    case Kind::Bandwidth:
      shader = "bandwidth";
      pipeline.specializations.push_back(spec_uint(2, uint32_t(c.bytes / 16)));
      // bandwidth_rotated: each pass reads what other compute units read
      // in the passes before (bandwidth.comp's ROTATE), from L2, not from L1.
      if (c.bench.variant) pipeline.specializations.push_back(spec_bool(3, true));
      input = "data";
      script.buffers["data"] = uint_buffer("data", std::vector<uint32_t>(c.bytes / 4, 1u));
      break;
    case Kind::Empty:
      shader = c.bench.variant == kPushedSequence     ? "empty_push"
               : c.bench.variant == kPushReadSequence ? "empty_push_read"
               : c.bench.variant == kCopiedSequence   ? "copy_back"
               : binds_uniform_buffer(c.bench.variant) ? "empty_uniform_read"
                                                       : "empty";
      pipeline.specializations = {spec_uint(0, c.workgroup_size)};
      input.clear();
      if (c.bench.variant == kPushedSequence || c.bench.variant == kPushReadSequence) {
        script.buffers["round"] = uint_buffer("round", {0, 1000});
        pipeline.bindings.push_back(push_constant("round"));
      }
      if (binds_uniform_buffer(c.bench.variant)) {
        script.buffers["params"] = uint_buffer("params", {0, 1000});
        pipeline.bindings.push_back(uniform("params", 1));
        pipeline.specializations.push_back(spec_bool(1, c.bench.variant == kUniformRead));
      }
      break;
  }
  script.shaders.push_back(glsl_shader("micro", "kernels/micro/" + shader + ".comp"));
  const bool one_word = c.bench.kind == Kind::Empty && c.bench.variant != kCopiedSequence;
  script.buffers["result"] = uint_buffer("result", std::vector<uint32_t>(one_word ? 1 : c.total_lanes(), 0));
  if (!input.empty()) pipeline.bindings.push_back(storage(input, 0));
  pipeline.bindings.push_back(storage("result", c.bench.kind == Kind::Empty ? 0 : 1));
  launch::RunCommand run;
  run.groups[0] = c.workgroups;
  run.timed = true;
  if (c.bench.kind == Kind::Empty && c.bench.variant == kSwitchedSequence) {
    // Pipelines that differ only in the value the store no lane reaches
    // writes (empty.comp's MARK): each its own binary, the same work.
    for (uint32_t k = 0; k < kSwitchedPipelines; ++k) {
      launch::PipelineDecl switched = pipeline;
      switched.name = "micro" + std::to_string(k);
      switched.specializations.push_back(spec_uint(1, k + 1));
      script.pipelines.push_back(switched);
    }
    for (uint32_t i = 0; i < c.iterations; ++i) {
      run.pipeline = "micro" + std::to_string(i % kSwitchedPipelines);
      script.commands.push_back(run);
    }
    return script;
  }
  script.pipelines.push_back(pipeline);
  run.pipeline = "micro";
  const bool sequence = c.bench.kind == Kind::Empty && !lone_dispatch(c.bench.variant);
  for (uint32_t i = 0; i < (sequence ? c.iterations : 1); ++i) script.commands.push_back(run);
  return script;
}

CheckResult MicroWorkload::check(const Params& params,
                                 const std::map<std::string, launch::BufferData>& buffers) const {
  const Config c = read_config(params);
  const std::vector<uint32_t> got = read_uints(result_buffer(buffers, "result", "micro"));
  const std::vector<uint32_t> want = expected_result(c);
  if (got.size() < want.size()) return {false, "result holds " + std::to_string(got.size()) + " values"};
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      return {false, c.bench.name + " result " + std::to_string(i) + ": expected " + std::to_string(want[i]) +
                         ", got " + std::to_string(got[i])};
  return {true, c.bench.name + ": " + std::to_string(want.size()) + " results match the CPU reference"};
}

WorkAmount MicroWorkload::work(const Params& params) const {
  const Config c = read_config(params);
  switch (c.bench.kind) {
    case Kind::AluThroughput:
    case Kind::Loading:
      return {double(c.steps()) * c.total_lanes(), "lane ops"};
    case Kind::Bandwidth:
      return {double(c.bytes) * c.iterations, "bytes"};
    case Kind::SharedThroughput:
      return {double(c.steps()) * c.total_lanes(), c.access == "store" ? "lane stores" : "lane loads"};
    case Kind::Branch:
      return {double(c.steps()) * c.total_lanes(), "lane steps"};
    case Kind::Empty:
      if (!lone_dispatch(c.bench.variant)) return {double(c.iterations), "dispatches"};
      return {double(c.workgroups), "workgroups"};
    default:
      return {double(c.steps()), "dependent steps"};
  }
}

void MicroWorkload::add_expectations(const Params& params, launch::Script& script) const {
  expect_equal_buffer(script, "result", uint_buffer("expected_result", expected_result(read_config(params))));
}

}  // namespace lanelab::kernels
