#include "sim/core/workgroup.h"

#include "sim/common/error.h"
#include "sim/core/dispatch.h"

namespace lanelab::core {

Workgroup::Workgroup(const DispatchContext& dispatch, std::array<uint32_t, 3> id)
    : dispatch_(&dispatch), id_(id), objects_(dispatch.objects) {
  const auto& program = *dispatch.program;
  shared_memory_.assign(program.workgroup_bytes, 0);
  for (auto& o : objects_)
    if (o.kind == frontend::MemoryKind::Workgroup) o.base = shared_memory_.data() + o.offset_bytes;
  const uint32_t size = dispatch.workgroup_size();
  const uint32_t width = dispatch.subgroup_width;
  // The last subgroup of a workgroup whose size is not a multiple of W has
  // lanes that do not exist: they stay off in every mask.
  for (uint32_t s = 0; s * width < size; ++s) {
    uint32_t lanes = std::min(width, size - s * width);
    subgroups_.push_back(std::make_unique<Subgroup>(*this, s, width, s * width, full_mask(lanes)));
  }
}

const frontend::Program& Workgroup::program() const { return *dispatch_->program; }

uint32_t Workgroup::linear_id() const {
  return id_[0] + dispatch_->workgroups[0] * (id_[1] + dispatch_->workgroups[1] * id_[2]);
}

bool Workgroup::done() const {
  for (const auto& s : subgroups_)
    if (s->state() != Subgroup::State::Done) return false;
  return true;
}

uint64_t Workgroup::run() {
  uint64_t steps = 0;
  while (!done()) {
    for (auto& s : subgroups_)
      for (; s->state() == Subgroup::State::Ready; ++steps) s->step();
    resolve_barrier();
  }
  return steps;
}

void Workgroup::step_subgroup(uint32_t s) {
  subgroups_.at(s)->step();
  resolve_barrier();
}

bool Workgroup::resolve_barrier() {
  const Subgroup* waiting = nullptr;
  for (const auto& s : subgroups_) {
    if (s->state() == Subgroup::State::Ready) return false;
    if (s->state() == Subgroup::State::AtBarrier && !waiting) waiting = s.get();
  }
  if (!waiting) return false;
  const auto& program = *dispatch_->program;
  const auto& at = program.instructions[waiting->barrier_pc()];
  for (const auto& s : subgroups_) {
    if (s->state() == Subgroup::State::Done) {
      std::string message = "divergent barrier: subgroup " + std::to_string(waiting->index()) +
                            " waits at this barrier but subgroup " + std::to_string(s->index()) +
                            " finished without reaching it";
      waiting->fail(at, message);
    }
    if (s->barrier_pc() != waiting->barrier_pc()) {
      const auto& other = program.instructions[s->barrier_pc()];
      waiting->fail(at, "divergent barrier: subgroup " + std::to_string(waiting->index()) +
                            " waits here but subgroup " + std::to_string(s->index()) + " waits at a different barrier (" +
                            program.where(other) + ")");
    }
  }
  for (auto& s : subgroups_) {
    s->release_from_barrier();
    if (auto* o = dispatch_->observer) o->on_control(*s, at, ControlEvent::BarrierRelease, s->active());
  }
  return true;
}

}  // namespace lanelab::core
