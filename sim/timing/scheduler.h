#pragma once
// A SIMD's subgroup scheduler: each issue cycle it picks one of the subgroups
// whose next instruction is ready. Swappable by name (--scheduler).
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace lanelab::timing {

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // `ready` holds subgroup ids (their age order: lower = older), ascending;
  // `last` is the id issued last on this SIMD. Returns the chosen id.
  virtual uint32_t pick(std::span<const uint32_t> ready, uint32_t last) const = 0;
};

// Loose round-robin: the first ready subgroup after the one issued last.
class LooseRoundRobinScheduler : public Scheduler {
 public:
  uint32_t pick(std::span<const uint32_t> ready, uint32_t last) const override;
};

// Greedy-then-oldest: keep issuing from the last subgroup while it is ready,
// else the oldest ready one.
class GreedyThenOldestScheduler : public Scheduler {
 public:
  uint32_t pick(std::span<const uint32_t> ready, uint32_t last) const override;
};

// "lrr" or "gto"; throws lanelab::Error naming the known ones.
std::unique_ptr<Scheduler> make_scheduler(const std::string& name);

}  // namespace lanelab::timing
