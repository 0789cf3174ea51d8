#include "sim/timing/timing_counters.h"

namespace lanelab::timing {

TimingCounters& TimingCounters::operator+=(const TimingCounters& o) {
  instructions += o.instructions;
  lane_slots += o.lane_slots;
  active_lanes += o.active_lanes;
  issue_cycles += o.issue_cycles;
  divergence_lost_cycles += o.divergence_lost_cycles;
  branches += o.branches;
  divergent_branches += o.divergent_branches;
  shared_load_requests += o.shared_load_requests;
  shared_store_requests += o.shared_store_requests;
  shared_load_wavefronts += o.shared_load_wavefronts;
  shared_store_wavefronts += o.shared_store_wavefronts;
  shared_load_bank_conflicts += o.shared_load_bank_conflicts;
  shared_store_bank_conflicts += o.shared_store_bank_conflicts;
  shared_lane_groups += o.shared_lane_groups;
  global_load_requests += o.global_load_requests;
  global_store_requests += o.global_store_requests;
  global_load_transactions += o.global_load_transactions;
  global_reread_load_transactions += o.global_reread_load_transactions;
  global_store_transactions += o.global_store_transactions;
  global_requested_bytes += o.global_requested_bytes;
  global_transferred_bytes += o.global_transferred_bytes;
  barrier_wait_cycles += o.barrier_wait_cycles;
  memory_stall_cycles += o.memory_stall_cycles;
  dependency_stall_cycles += o.dependency_stall_cycles;
  barrier_stall_cycles += o.barrier_stall_cycles;
  idle_cycles += o.idle_cycles;
  simd_cycles += o.simd_cycles;
  resident_subgroup_cycles += o.resident_subgroup_cycles;
  cu_cycles += o.cu_cycles;
  workgroups += o.workgroups;
  return *this;
}

TimingCounters TimingCounters::scaled(double k) const {
  TimingCounters c = *this;
  c.instructions *= k;
  c.lane_slots *= k;
  c.active_lanes *= k;
  c.issue_cycles *= k;
  c.divergence_lost_cycles *= k;
  c.branches *= k;
  c.divergent_branches *= k;
  c.shared_load_requests *= k;
  c.shared_store_requests *= k;
  c.shared_load_wavefronts *= k;
  c.shared_store_wavefronts *= k;
  c.shared_load_bank_conflicts *= k;
  c.shared_store_bank_conflicts *= k;
  c.shared_lane_groups *= k;
  c.global_load_requests *= k;
  c.global_store_requests *= k;
  c.global_load_transactions *= k;
  c.global_reread_load_transactions *= k;
  c.global_store_transactions *= k;
  c.global_requested_bytes *= k;
  c.global_transferred_bytes *= k;
  c.barrier_wait_cycles *= k;
  c.memory_stall_cycles *= k;
  c.dependency_stall_cycles *= k;
  c.barrier_stall_cycles *= k;
  c.idle_cycles *= k;
  c.simd_cycles *= k;
  c.resident_subgroup_cycles *= k;
  c.cu_cycles *= k;
  c.workgroups *= k;
  return c;
}

}  // namespace lanelab::timing
