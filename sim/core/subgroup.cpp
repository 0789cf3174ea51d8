#include "sim/core/subgroup.h"

#include <spirv/unified1/spirv.hpp11>

#include <cstring>

#include "sim/common/error.h"
#include "sim/core/dispatch.h"
#include "sim/core/workgroup.h"

namespace lanelab::core {

using frontend::Instruction;
using frontend::MemoryKind;

namespace {

// Register files are recycled between the subgroups one thread creates: a
// timing run launches thousands of workgroups of one program, and a fresh
// allocation of several megabytes for each (an unrolled kernel has
// thousands of slots) costs more in page faults than simulating it.
constexpr size_t kSpareRegisterFiles = 256;
thread_local std::vector<std::vector<uint64_t>> spare_register_files;

}  // namespace

Subgroup::~Subgroup() {
  if (registers_.capacity() > 0 && spare_register_files.size() < kSpareRegisterFiles)
    spare_register_files.push_back(std::move(registers_));
}

Subgroup::Subgroup(Workgroup& workgroup, uint32_t index, uint32_t width, uint32_t first_local_index, LaneMask lanes)
    : workgroup_(&workgroup),
      program_(&workgroup.program()),
      index_(index),
      width_(width),
      first_local_index_(first_local_index),
      lanes_(lanes) {
  if (!spare_register_files.empty()) {
    registers_ = std::move(spare_register_files.back());
    spare_register_files.pop_back();
  }
  registers_.assign(size_t(program_->slot_count) * width_, 0);
  // Constants and variable pointers are the same in every lane.
  for (const auto& p : program_->preloads) std::fill_n(slot(p.slot), width_, p.value);
  initialize_private_memory();
  const auto& entry = program_->blocks.at(program_->entry_block);
  stack_.reset(program_->entry_block, entry.first, lanes_);
}

// Input builtins live in each lane's private memory, written once here, so a
// load of gl_GlobalInvocationID is an ordinary load.
void Subgroup::initialize_private_memory() {
  const auto& dispatch = workgroup_->dispatch();
  const uint64_t stride = program_->private_bytes_per_lane;
  private_memory_.assign(stride * width_, 0);
  const uint32_t* size = program_->local_size;
  const auto group = workgroup_->id();
  auto put = [&](uint32_t lane, const auto& v, uint64_t offset, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      uint32_t word = uint32_t(v[i]);
      std::memcpy(&private_memory_[lane * stride + offset + 4 * i], &word, 4);
    }
  };
  for (const auto& var : program_->variables) {
    if (var.memory != MemoryKind::Input) continue;
    for (uint32_t lane = 0; lane < width_; ++lane) {
      uint32_t li = first_local_index_ + lane;
      uint32_t local[3] = {li % size[0], (li / size[0]) % size[1], li / (size[0] * size[1])};
      auto mask_word = [&](auto predicate) {
        uint32_t m[4] = {0, 0, 0, 0};
        for (uint32_t l = 0; l < width_; ++l)
          if (predicate(l)) m[l / 32] |= 1u << (l % 32);
        return std::array<uint32_t, 4>{m[0], m[1], m[2], m[3]};
      };
      switch (spv::BuiltIn(var.builtin)) {
        case spv::BuiltIn::LocalInvocationId: put(lane, local, var.offset_bytes, 3); break;
        case spv::BuiltIn::GlobalInvocationId: {
          uint32_t g[3] = {group[0] * size[0] + local[0], group[1] * size[1] + local[1], group[2] * size[2] + local[2]};
          put(lane, g, var.offset_bytes, 3);
          break;
        }
        case spv::BuiltIn::LocalInvocationIndex: put(lane, std::array<uint32_t, 1>{li}, var.offset_bytes, 1); break;
        case spv::BuiltIn::WorkgroupId: put(lane, group, var.offset_bytes, 3); break;
        case spv::BuiltIn::NumWorkgroups: put(lane, dispatch.workgroups, var.offset_bytes, 3); break;
        case spv::BuiltIn::WorkgroupSize: put(lane, size, var.offset_bytes, 3); break;
        case spv::BuiltIn::SubgroupSize: put(lane, std::array<uint32_t, 1>{width_}, var.offset_bytes, 1); break;
        case spv::BuiltIn::SubgroupLocalInvocationId: put(lane, std::array<uint32_t, 1>{lane}, var.offset_bytes, 1); break;
        case spv::BuiltIn::SubgroupId: put(lane, std::array<uint32_t, 1>{index_}, var.offset_bytes, 1); break;
        case spv::BuiltIn::NumSubgroups:
          put(lane, std::array<uint32_t, 1>{dispatch.subgroups_per_workgroup()}, var.offset_bytes, 1);
          break;
        case spv::BuiltIn::SubgroupEqMask: put(lane, mask_word([&](uint32_t l) { return l == lane; }), var.offset_bytes, 4); break;
        case spv::BuiltIn::SubgroupGeMask: put(lane, mask_word([&](uint32_t l) { return l >= lane; }), var.offset_bytes, 4); break;
        case spv::BuiltIn::SubgroupGtMask: put(lane, mask_word([&](uint32_t l) { return l > lane; }), var.offset_bytes, 4); break;
        case spv::BuiltIn::SubgroupLeMask: put(lane, mask_word([&](uint32_t l) { return l <= lane; }), var.offset_bytes, 4); break;
        case spv::BuiltIn::SubgroupLtMask: put(lane, mask_word([&](uint32_t l) { return l < lane; }), var.offset_bytes, 4); break;
        default:
          throw Error("unsupported built-in input variable '" + var.name + "' (BuiltIn " +
                      std::to_string(var.builtin) + ")");
      }
    }
  }
  // Initializers (Private/Function variables): the constant's slots, stored
  // through the variable type's leaves.
  for (const auto& var : program_->variables) {
    if (var.initializer == frontend::kNoId || !(var.memory == MemoryKind::Private || var.memory == MemoryKind::Function))
      continue;
    uint32_t source = program_->id_slot[var.initializer];
    for (const auto& leaf : program_->leaf_lists[var.initializer_leaves])
      for (uint32_t lane = 0; lane < width_; ++lane) {
        uint64_t v = value(source + leaf.slot, lane);
        std::memcpy(&private_memory_[lane * stride + var.offset_bytes + leaf.byte_offset], &v, leaf.bytes);
      }
  }
}

void Subgroup::step() {
  if (state_ != State::Ready) return;
  const auto& dispatch = workgroup_->dispatch();
  const Instruction& in = program_->instructions[stack_.top().pc];
  if (++steps_ > dispatch.max_steps_per_subgroup)
    fail(in, "ran past --max-steps " + std::to_string(dispatch.max_steps_per_subgroup) +
                 " instructions (a runaway loop?) with lanes " + lane_list(active()) + " still active here");
  if (dispatch.observer) dispatch.observer->on_instruction(*this, in, active());
  ++stack_.top().pc;
  in.handler(*this, in);
}

uint8_t* Subgroup::address(const Instruction& in, uint64_t pointer, uint32_t lane, uint64_t bytes, bool is_store) {
  const auto& objects = workgroup_->objects();
  uint32_t index = memory::pointer_object(pointer);
  int64_t offset = memory::pointer_offset(pointer);
  if (index >= objects.size()) fail(in, "invalid pointer", lane);
  const auto& o = objects[index];
  if (offset < 0 || uint64_t(offset) + bytes > o.size_bytes)
    fail(in, std::string("out of bounds ") + (is_store ? "store to " : "load from ") + o.name + " at byte offset " +
                 std::to_string(offset) + " (" + std::to_string(bytes) + " bytes); its size is " +
                 std::to_string(o.size_bytes) + " bytes",
         lane);
  if (o.per_lane())
    return &private_memory_[lane * program_->private_bytes_per_lane + o.offset_bytes + uint64_t(offset)];
  return o.base + offset;
}

uint64_t Subgroup::observed_address(uint64_t pointer) const {
  const auto& o = workgroup_->objects()[memory::pointer_object(pointer)];
  return o.offset_bytes + uint64_t(memory::pointer_offset(pointer));
}

const memory::MemoryObject& Subgroup::object(uint32_t index) const { return workgroup_->objects().at(index); }

ExecutionObserver* Subgroup::observer() const { return workgroup_->dispatch().observer; }

void Subgroup::record_previous_block(uint32_t block) {
  for_each_lane(active(), [&](uint32_t lane) { previous_block_[lane] = block; });
}

void Subgroup::jump(const Instruction& in, uint32_t target) {
  record_previous_block(in.block);
  if (stack_.jump(*program_, target) && observer()) observer()->on_control(*this, in, ControlEvent::Reconverge, active());
  if (stack_.empty()) state_ = State::Done;
}

void Subgroup::branch(const Instruction& in, LaneMask taken, uint32_t target_true, uint32_t target_false) {
  LaneMask lanes = active();
  taken &= lanes;
  if (taken == lanes) return jump(in, target_true);
  if (taken == 0) return jump(in, target_false);
  record_previous_block(in.block);
  if (observer()) observer()->on_control(*this, in, ControlEvent::Diverge, taken);
  stack_.diverge(*program_, {{target_true, taken}, {target_false, lanes & ~taken}}, program_->blocks[in.block].ipdom);
  if (stack_.empty()) state_ = State::Done;
}

void Subgroup::branch_many(const Instruction& in, const std::vector<ReconvergenceStack::Path>& paths) {
  if (paths.size() == 1) return jump(in, paths[0].block);
  record_previous_block(in.block);
  if (observer()) observer()->on_control(*this, in, ControlEvent::Diverge, paths[0].mask);
  stack_.diverge(*program_, paths, program_->blocks[in.block].ipdom);
  if (stack_.empty()) state_ = State::Done;
}

void Subgroup::exit_lanes(const Instruction& in) {
  LaneMask lanes = active();
  exited_ |= lanes;
  if (observer()) observer()->on_control(*this, in, ControlEvent::Exit, lanes);
  stack_.exit_lanes(lanes);
  if (stack_.empty()) state_ = State::Done;
}

void Subgroup::wait_at_barrier(const Instruction& in) {
  LaneMask missing = lanes_ & ~active();
  if (missing) {
    LaneMask gone = missing & exited_;
    fail(in, "divergent barrier: lanes " + lane_list(missing) + " of subgroup " + std::to_string(index_) +
                 " are " + (gone == missing ? "gone (returned early)" : "masked off") +
                 " while lanes " + lane_list(active()) + " reached the barrier");
  }
  state_ = State::AtBarrier;
  barrier_pc_ = stack_.top().pc - 1;
  if (observer()) observer()->on_control(*this, in, ControlEvent::BarrierWait, active());
}

void Subgroup::fail(const Instruction& in, const std::string& message, std::optional<uint32_t> lane) const {
  Place place;
  place.file = program_->files.empty() ? program_->module.source_file : program_->files.at(in.file);
  place.line = in.line;
  place.workgroup = workgroup_->id();
  place.subgroup = index_;
  place.lane = lane;
  throw Error(message, place);
}

}  // namespace lanelab::core
