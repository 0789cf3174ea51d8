#include "sim/timing/scheduler.h"

#include "sim/common/error.h"

namespace lanelab::timing {

uint32_t LooseRoundRobinScheduler::pick(std::span<const uint32_t> ready, uint32_t last) const {
  for (uint32_t id : ready)
    if (id > last) return id;
  return ready.front();
}

uint32_t GreedyThenOldestScheduler::pick(std::span<const uint32_t> ready, uint32_t last) const {
  for (uint32_t id : ready)
    if (id == last) return id;
  return ready.front();
}

std::unique_ptr<Scheduler> make_scheduler(const std::string& name) {
  if (name == "lrr") return std::make_unique<LooseRoundRobinScheduler>();
  if (name == "gto") return std::make_unique<GreedyThenOldestScheduler>();
  throw Error("unknown scheduler '" + name + "' (known: lrr, gto)");
}

}  // namespace lanelab::timing
