#pragma once
// The order in which a latency-aware vendor compiler (ptxas, ACO) issues each
// basic block. The compute unit issues a subgroup's instructions in order and
// holds it until the next one's operands are ready (scoreboard.h). SPIR-V as
// glslang writes it puts each use just after its definition, so a subgroup
// with independent work further down the block would wait where the vendor
// compiler has it issue that work meanwhile: Ballot32's 32 ballots, APSP's
// unrolled k loop.
//
// schedule_blocks reorders every block by list scheduling: of the
// instructions whose operands' producers have been placed, the one that can
// issue earliest goes next, the one with the longest latency path to the end
// of the block first among equals; latencies are the device's
// (InstructionLatencyCycles). What does not move: a block's phis (first), its
// merge and terminator (last), its barriers (nothing crosses one), the order
// among the accesses to one storage class (loads, stores, atomics of shared
// memory; of storage buffers), and the place of any other instruction without
// a result against every access. Accesses to different storage classes pass
// each other, as they cannot alias: a tile copy issues its global loads before
// its first shared store waits for one. And a shared-memory load passes the
// shared store just before it where the code tells their words apart (another
// variable, or the same index terms at another offset), with the loads after
// that store: the H100's driver loads an APSP cell's own word ahead of the
// cell before's store. Register pressure is not weighed, and
// the register estimate (register_pressure.h) stays that of the block as
// written.
#include "sim/devices/device_model.h"
#include "sim/frontend/program.h"

namespace lanelab::timing {

frontend::Program schedule_blocks(const frontend::Program& program, const InstructionLatencyCycles& latency);

}  // namespace lanelab::timing
