#pragma once
// Writes a recorded run as Chrome trace-event JSON (opens in Perfetto and
// chrome://tracing): one process per compute unit, one thread (track) per
// subgroup, a complete slice per instruction ("X", timestamps in issue cycles
// shown as microseconds), a counter of active lanes per subgroup, and instant
// events for divergence, reconvergence and barriers.
#include <string>

#include "sim/trace/step_recording.h"

namespace lanelab::trace {

void write_chrome_trace(const Recording& recording, const std::string& path);

}  // namespace lanelab::trace
