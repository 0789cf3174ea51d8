#pragma once
// What the timing model counts, named after the profilers' metrics where one
// exists (nvprof / Nsight Compute, rocprof). Totals over the simulated
// workgroups; extrapolation scales them (hence double).
#include <cstdint>

namespace lanelab::timing {

struct TimingCounters {
  double instructions = 0;           // subgroup instructions issued (free ones excluded)
  double lane_slots = 0;             // instructions x subgroup width: the lanes' issue slots
  double active_lanes = 0;           // lanes active over issued instructions
  double issue_cycles = 0;           // SIMD cycles spent issuing: ceil(W / ALU lanes) each
  double divergence_lost_cycles = 0; // issue cycles spent on predicated-off lanes
  double branches = 0, divergent_branches = 0;
  double shared_load_requests = 0, shared_store_requests = 0;
  double shared_load_wavefronts = 0, shared_store_wavefronts = 0;    // shared transactions
  double shared_load_bank_conflicts = 0, shared_store_bank_conflicts = 0;  // replays
  double shared_lane_groups = 0;     // wavefronts a conflict-free access would need
  double global_load_requests = 0, global_store_requests = 0;
  double global_load_transactions = 0, global_store_transactions = 0;  // sectors
  // Of the loads' sectors, those of lines other workgroups read too (workgroup_dependence.h).
  double global_reread_load_transactions = 0;
  double global_requested_bytes = 0, global_transferred_bytes = 0;
  double barrier_wait_cycles = 0;    // subgroup-cycles between arriving at a barrier and its release
  double memory_stall_cycles = 0;    // SIMD cycles with no subgroup ready, the next one waiting on memory
  double dependency_stall_cycles = 0;// ... waiting on an ALU result
  double barrier_stall_cycles = 0;   // ... with every subgroup at a barrier
  double idle_cycles = 0;            // ... with no subgroup resident
  double simd_cycles = 0;            // SIMDs x compute-unit cycles
  double resident_subgroup_cycles = 0;  // integral of resident subgroups over cycles
  double cu_cycles = 0;
  double workgroups = 0;

  TimingCounters& operator+=(const TimingCounters& o);
  TimingCounters scaled(double factor) const;
};

}  // namespace lanelab::timing
