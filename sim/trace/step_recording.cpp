#include "sim/trace/step_recording.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <set>
#include <sstream>

#include "sim/common/error.h"
#include "sim/core/dispatch.h"
#include "sim/core/subgroup.h"
#include "sim/core/workgroup.h"
#include "sim/frontend/opcode_table.h"
#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"
#include "sim/timing/bank_model.h"

namespace lanelab::trace {

namespace {

constexpr uint16_t kOpBranchConditional = 250;

std::string lanes_text(core::LaneMask m) { return core::lane_list(m); }

// Lanes x sectors / banks of one memory access, as the events column says it.
std::string memory_event(const DeviceModel& device, const core::MemoryAccess& access) {
  std::string what = access.is_atomic ? "atomic" : access.is_store ? "store" : "load";
  uint32_t lanes = core::lane_count(access.lanes);
  if (access.kind == frontend::MemoryKind::Workgroup) {
    const timing::BankAccess bank =
        timing::DistinctWordBankModel(device).access(access.lanes, access.addresses, access.bytes_per_lane);
    const uint32_t worst = bank.worst_degree;
    std::string text = "shared " + what + " " + std::to_string(lanes) + " lanes";
    return text + (worst > 1 ? ", " + std::to_string(worst) + "-way bank conflict" : ", no bank conflict");
  }
  if (access.kind == frontend::MemoryKind::StorageBuffer || access.kind == frontend::MemoryKind::UniformBuffer) {
    const uint32_t sector = std::max(1u, device.global_sector_bytes);
    std::set<uint64_t> sectors;
    core::for_each_lane(access.lanes, [&](uint32_t lane) {
      uint64_t first = access.addresses[lane] / sector, last = (access.addresses[lane] + access.bytes_per_lane - 1) / sector;
      for (uint64_t s = first; s <= last; ++s) sectors.insert(s);
    });
    return "global " + what + " " + std::to_string(lanes) + " lanes, " + std::to_string(sectors.size()) +
           (sectors.size() == 1 ? " transaction" : " transactions");
  }
  return {};  // Function / Private / Input: registers in all but name
}

// The observer: turns each executed instruction into its issue-cycle rows.
class StepRecorder : public core::ExecutionObserver {
 public:
  StepRecorder(Recording& recording, uint64_t max_rows) : rec_(recording), max_rows_(max_rows) {}

  uint64_t clock[64] = {};  // per compute unit (the teaching models have one)
  uint32_t compute_unit = 0;

  void on_instruction(const core::Subgroup& sg, const frontend::Instruction& in, core::LaneMask lanes) override {
    if (rec_.rows.size() >= max_rows_) {
      rec_.truncated = true;
      throw Error("stopped recording after " + std::to_string(max_rows_) + " issue cycles (--max-rows)");
    }
    State& state = state_of(sg);
    if (in.opcode == kOpBranchConditional) {
      uint32_t slot = sg.operand(in, 0);
      core::for_each_lane(lanes, [&](uint32_t lane) {
        state.predicate_known |= core::LaneMask{1} << lane;
        if (sg.value(slot, lane) & 1) state.predicate |= core::LaneMask{1} << lane;
        else state.predicate &= ~(core::LaneMask{1} << lane);
      });
    }
    const uint32_t parts = rec_.issue_parts();
    state.first_row = rec_.rows.size();
    for (uint32_t k = 0; k < parts; ++k) {
      StepRow row;
      row.workgroup = sg.workgroup().linear_id();
      row.subgroup = sg.index();
      row.compute_unit = compute_unit;
      row.cycle = clock[compute_unit]++;
      row.pc = uint32_t(&in - rec_.program->instructions.data());
      row.issue_part = uint16_t(k);
      row.issue_parts = uint16_t(parts);
      row.active = lanes;
      row.lanes = sg.lanes();
      row.predicate_known = state.predicate_known;
      row.predicate = state.predicate;
      row.stack_depth = uint32_t(sg.stack().depth());
      rec_.rows.push_back(std::move(row));
    }
    rec_.total_cycles = std::max(rec_.total_cycles, clock[compute_unit]);
  }

  void on_memory(const core::Subgroup& sg, const frontend::Instruction&, const core::MemoryAccess& access) override {
    std::string text = memory_event(rec_.device, access);
    if (!text.empty()) add_event(sg, text);
  }

  void on_control(const core::Subgroup& sg, const frontend::Instruction&, core::ControlEvent event,
                  core::LaneMask lanes) override {
    switch (event) {
      case core::ControlEvent::Diverge: add_event(sg, "diverge: lanes " + lanes_text(lanes) + " branch to the first target"); break;
      case core::ControlEvent::Reconverge: add_event(sg, "reconverge: lanes " + lanes_text(lanes)); break;
      case core::ControlEvent::Exit: add_event(sg, "exit: lanes " + lanes_text(lanes)); break;
      case core::ControlEvent::BarrierWait: add_event(sg, "barrier wait: lanes " + lanes_text(lanes)); break;
      case core::ControlEvent::BarrierRelease: add_event(sg, "barrier release"); break;
    }
  }

  // First row of the subgroup's last instruction, if it issued one.
  std::optional<size_t> last_instruction_row(uint32_t workgroup, uint32_t subgroup) {
    auto it = states_.find({workgroup, subgroup});
    if (it == states_.end() || it->second.first_row == SIZE_MAX) return {};
    return it->second.first_row;
  }

 private:
  struct State {
    core::LaneMask predicate_known = 0, predicate = 0;
    size_t first_row = SIZE_MAX;
  };
  State& state_of(const core::Subgroup& sg) { return states_[{sg.workgroup().linear_id(), sg.index()}]; }
  void add_event(const core::Subgroup& sg, const std::string& text) {
    size_t row = state_of(sg).first_row;
    if (row != SIZE_MAX) rec_.rows[row].events.push_back(text);
  }

  Recording& rec_;
  uint64_t max_rows_;
  std::map<std::pair<uint32_t, uint32_t>, State> states_;
};

ValueKind kind_of(const frontend::Type& type) {
  switch (type.kind) {
    case frontend::Type::Kind::Bool: return ValueKind::Bool;
    case frontend::Type::Kind::Float: return ValueKind::Float;
    case frontend::Type::Kind::Int: return type.is_signed ? ValueKind::Int : ValueKind::Uint;
    default: return ValueKind::Uint;
  }
}

// The first scalar of a (possibly composite) type.
const frontend::Type& first_scalar(const frontend::Program& program, uint32_t type_id) {
  const frontend::Type* t = &program.type(type_id);
  while (!t->is_scalar()) {
    if (t->kind == frontend::Type::Kind::Struct && !t->members.empty()) t = &program.type(t->members[0]);
    else if (t->element != frontend::kNoId) t = &program.type(t->element);
    else break;
  }
  return *t;
}

// Where a watched name's per-lane values come from.
struct WatchSource {
  const frontend::Variable* variable = nullptr;  // Function variable
  const launch::BufferData* buffer = nullptr;    // or script buffer, element [global index]
};

class RecordingBackend : public launch::ComputeBackend {
 public:
  RecordingBackend(Recording& recording, const StepOptions& options, uint32_t width)
      : rec_(recording), options_(options), sim_([&] {
          launch::SimulatorOptions o;
          o.subgroup_size = width;
          o.optimize = false;
          o.max_steps = options.max_steps;
          return o;
        }()) {}

  void require(const launch::Script& script) override { sim_.require(script); }

  void dispatch(const launch::Script& script, const launch::PipelineDecl& pipeline, const launch::RunCommand& run,
                std::map<std::string, launch::BufferData>& buffers) override {
    const uint32_t index = dispatches_++;
    const std::vector<core::BoundBuffer> bound = launch::bind_buffers(script, pipeline, buffers);
    const frontend::Program& program = sim_.program(script, pipeline);
    core::DispatchContext context = core::make_dispatch(program, rec_.subgroup_width,
                                                        {run.groups[0], run.groups[1], run.groups[2]}, bound);
    context.max_steps_per_subgroup = options_.max_steps;
    if (index != options_.dispatch) {
      core::run_dispatch(context);
      return;
    }
    recorded_ = true;
    rec_.program = &program;
    rec_.subgroups_per_workgroup = context.subgroups_per_workgroup();
    rec_.workgroup_count = run.groups[0] * run.groups[1] * run.groups[2];
    const launch::ShaderDecl& shader = script.shader(pipeline.shader);
    rec_.source_lines.assign(size_t(std::max(0, shader.first_line - 1)), "");
    std::istringstream text(shader.text);
    for (std::string line; std::getline(text, line);) rec_.source_lines.push_back(line);
    std::vector<WatchSource> sources = resolve_watches(program, buffers, pipeline);

    StepRecorder recorder(rec_, options_.max_rows);
    context.observer = &recorder;
    const uint32_t units = std::clamp(rec_.device.compute_units, 1u, 64u);
    const uint32_t wg_size = context.workgroup_size();
    for (uint32_t z = 0; z < run.groups[2]; ++z)
      for (uint32_t y = 0; y < run.groups[1]; ++y)
        for (uint32_t x = 0; x < run.groups[0]; ++x) {
          core::Workgroup wg(context, {x, y, z});
          const uint32_t id = wg.linear_id();
          recorder.compute_unit = id % units;
          const bool chosen = id == rec_.chosen_workgroup;
          std::vector<std::vector<uint64_t>> current(wg.subgroups().size());
          std::vector<std::vector<uint8_t>> known(wg.subgroups().size());
          if (chosen)
            for (size_t s = 0; s < wg.subgroups().size(); ++s)
              read_values(*wg.subgroups()[s], id * wg_size, sources, current[s], known[s]);
          while (!wg.done()) {
            bool progressed = false;
            for (uint32_t s = 0; s < wg.subgroups().size(); ++s) {
              core::Subgroup& sg = *wg.subgroups()[s];
              if (sg.state() != core::Subgroup::State::Ready) continue;
              progressed = true;
              const size_t before = rec_.rows.size();
              wg.step_subgroup(s);
              if (!chosen || rec_.rows.size() == before) continue;
              std::vector<uint64_t> after;
              std::vector<uint8_t> after_known;
              read_values(sg, id * wg_size, sources, after, after_known);
              const int64_t offset = int64_t(rec_.values.size());
              rec_.values.insert(rec_.values.end(), current[s].begin(), current[s].end());
              rec_.values.insert(rec_.values.end(), after.begin(), after.end());
              rec_.value_known.insert(rec_.value_known.end(), known[s].begin(), known[s].end());
              rec_.value_known.insert(rec_.value_known.end(), after_known.begin(), after_known.end());
              for (size_t r = before; r < rec_.rows.size(); ++r)
                if (rec_.rows[r].workgroup == id && rec_.rows[r].subgroup == s) rec_.rows[r].values = offset;
              current[s] = std::move(after);
              known[s] = std::move(after_known);
            }
            if (!progressed && !wg.resolve_barrier()) throw Error("no subgroup can make progress");
          }
        }
  }

  bool recorded() const { return recorded_; }

 private:
  std::vector<WatchSource> resolve_watches(const frontend::Program& program,
                                           const std::map<std::string, launch::BufferData>& buffers,
                                           const launch::PipelineDecl& pipeline) {
    std::vector<WatchSource> sources;
    rec_.watches.clear();
    for (const auto& name : options_.watch) {
      Watch w;
      w.name = name;
      WatchSource source;
      for (const auto& v : program.variables)
        if (v.memory == frontend::MemoryKind::Function && v.name == name) {
          source.variable = &v;
          const frontend::Type& t = first_scalar(program, v.type);
          w.kind = kind_of(t);
          w.bits = std::max(32u, t.width_bits);
          w.source = "Function variable";
          break;
        }
      if (!source.variable) {
        bool bound = std::any_of(pipeline.bindings.begin(), pipeline.bindings.end(),
                                 [&](const auto& b) { return b.buffer == name; });
        auto it = buffers.find(name);
        if (bound && it != buffers.end()) {
          source.buffer = &it->second;
          const auto& type = it->second.type;
          w.kind = type.kind == launch::ScalarKind::Float ? ValueKind::Float
                   : type.kind == launch::ScalarKind::Int ? ValueKind::Int
                                                          : ValueKind::Uint;
          w.bits = type.bits;
          w.source = "buffer";
        }
      }
      if (!source.variable && !source.buffer) {
        std::string known;
        for (const auto& v : program.variables)
          if (v.memory == frontend::MemoryKind::Function && !v.name.empty()) known += " " + v.name;
        for (const auto& b : pipeline.bindings) known += " " + b.buffer;
        throw Error("--watch " + name + ": no Function variable or bound buffer of that name (known:" + known + ")");
      }
      rec_.watches.push_back(w);
      sources.push_back(source);
    }
    return sources;
  }

  void read_values(core::Subgroup& sg, uint64_t first_global, const std::vector<WatchSource>& sources,
                   std::vector<uint64_t>& out, std::vector<uint8_t>& known) {
    const uint32_t width = rec_.subgroup_width;
    out.assign(sources.size() * width, 0);
    known.assign(sources.size() * width, 0);
    const frontend::Program& program = *rec_.program;
    for (size_t w = 0; w < sources.size(); ++w)
      core::for_each_lane(sg.lanes(), [&](uint32_t lane) {
        const size_t at = w * width + lane;
        if (const frontend::Variable* v = sources[w].variable) {
          const uint32_t bytes = rec_.watches[w].bits / 8;
          uint64_t pointer = sg.value(program.id_slot[v->id], lane);
          uint64_t raw = 0;
          std::memcpy(&raw, sg.address(program.instructions.front(), pointer, lane, bytes, false), bytes);
          out[at] = raw;
          known[at] = 1;
        } else {
          const launch::BufferData& b = *sources[w].buffer;
          uint64_t element = first_global + sg.local_index(lane);
          if (element < b.element_count) {
            out[at] = b.scalar_bits(element * b.scalars_per_element());
            known[at] = 1;
          }
        }
      });
  }

  Recording& rec_;
  const StepOptions& options_;
  launch::SimulatorBackend sim_;
  uint32_t dispatches_ = 0;
  bool recorded_ = false;
};

}  // namespace

std::string format_value(ValueKind kind, uint32_t bits, uint64_t raw) {
  if (bits < 64) raw &= (uint64_t{1} << bits) - 1;
  switch (kind) {
    case ValueKind::Bool: return raw ? "T" : "F";
    case ValueKind::Uint: return std::to_string(raw);
    case ValueKind::Int: {
      int64_t v = bits < 64 && (raw >> (bits - 1)) & 1 ? int64_t(raw | ~((uint64_t{1} << bits) - 1)) : int64_t(raw);
      return std::to_string(v);
    }
    case ValueKind::Float: {
      double v;
      if (bits == 64) std::memcpy(&v, &raw, 8);
      else {
        float f;
        uint32_t w = uint32_t(raw);
        std::memcpy(&f, &w, 4);
        v = f;
      }
      std::ostringstream s;
      s << v;
      return s.str();
    }
  }
  return {};
}

uint32_t Recording::issue_parts() const {
  const uint32_t alu = device.alu_lanes_per_simd ? device.alu_lanes_per_simd : subgroup_width;
  return (register_lanes + alu - 1) / alu;
}

std::string Recording::source_text(int line) const {
  if (line <= 0 || size_t(line) > source_lines.size()) return {};
  std::string s = source_lines[size_t(line) - 1];
  size_t first = s.find_first_not_of(" \t");
  return first == std::string::npos ? std::string() : s.substr(first);
}

std::string Recording::instruction_text(uint32_t pc) const {
  const frontend::Instruction& in = program->instructions.at(pc);
  std::string text;
  if (in.result_id != frontend::kNoId) {
    text = program->name_of(in.result_id) + " = ";
  }
  return text + frontend::opcode_name(in.opcode);
}

std::vector<size_t> Recording::rows_of(uint32_t workgroup, uint32_t subgroup) const {
  std::vector<size_t> out;
  for (size_t r = 0; r < rows.size(); ++r)
    if (rows[r].workgroup == workgroup && rows[r].subgroup == subgroup) out.push_back(r);
  return out;
}

std::optional<uint64_t> Recording::value(size_t r, size_t w, uint32_t lane) const {
  const StepRow& row = rows[r];
  if (row.values < 0) return {};
  const uint32_t alu = device.alu_lanes_per_simd ? device.alu_lanes_per_simd : subgroup_width;
  const uint32_t depth = std::max(1u, device.pipeline_depth_cycles);
  const bool written = uint32_t(row.issue_part) + 1 >= lane / alu + depth;
  const size_t at = size_t(row.values) + (written ? watches.size() * subgroup_width : 0) + w * subgroup_width + lane;
  if (!value_known[at]) return {};
  return values[at];
}

Recording record_script(const launch::Script& script, const StepOptions& options) {
  Recording rec;
  rec.device = load_device_model(options.device);
  rec.subgroup_width = options.subgroup_size.value_or(rec.device.subgroup_size);
  if (rec.subgroup_width == 0 || rec.subgroup_width > 64) throw Error("subgroup size must be 1..64");
  rec.register_lanes = rec.subgroup_width;
  // The executor takes power-of-two widths only; a teaching width such as 9
  // runs on the next power of two, and the issue model counts the 9.
  rec.subgroup_width = std::bit_ceil(rec.subgroup_width);
  rec.chosen_workgroup = options.workgroup;
  auto owner = std::make_shared<RecordingBackend>(rec, options, rec.subgroup_width);
  RecordingBackend& backend = *owner;
  rec.program_owner = owner;  // the decoded program lives in the backend
  try {
    launch::run_script(script, backend);
  } catch (const Error& e) {
    if (!backend.recorded()) throw;
    rec.error = e.place().file.empty() ? e.message() : e.place().str() + ": " + e.message();
  }
  if (!backend.recorded())
    throw Error("the script has no dispatch " + std::to_string(options.dispatch) + " to record (--dispatch)");
  return rec;
}

}  // namespace lanelab::trace
