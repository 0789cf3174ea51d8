#pragma once
// The simulator's own estimate of a kernel's registers per lane, for the
// occupancy calculator when no driver can report the real count: the peak
// number of 32-bit values live at once in the (optimized) SPIR-V, plus the
// private arrays a compiler keeps in registers. A GPU compiler's allocation
// differs (scheduling, rematerialization, address registers), so this is an
// estimate and is always printed as one.
#include <cstdint>

#include "sim/frontend/program.h"

namespace lanelab::frontend {

struct RegisterEstimate {
  uint32_t peak_live_registers = 0;  // 32-bit SSA values live at the worst point
  uint32_t private_registers = 0;    // Function/Private variables (bytes / 4)
  int line_at_peak = 0;              // source line where the peak occurs
  uint32_t total() const { return peak_live_registers + private_registers; }
};

RegisterEstimate estimate_registers(const Program& program);

}  // namespace lanelab::frontend
