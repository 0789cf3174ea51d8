#pragma once
// Interprets a parsed script: runs RUN/COPY/REPEAT in file order on a backend
// and evaluates each EXPECT, reporting pass/fail with the first mismatch.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/launch/compute_backend.h"

namespace lanelab::launch {

struct ExpectResult {
  int line = 0;
  bool passed = false;
  std::string message;  // on failure: first mismatching index and both values
};

struct ScriptResult {
  std::vector<ExpectResult> expects;
  std::map<std::string, BufferData> buffers;  // final contents
  bool all_passed() const;
};

// Evaluates one EXPECT against current buffer contents.
ExpectResult evaluate_expect(const ExpectCommand& expect, const std::map<std::string, BufferData>& buffers);

// `on_expect` is told of each EXPECT as soon as it is evaluated (progress output).
ScriptResult run_script(const Script& script, ComputeBackend& backend,
                        const std::function<void(const ExpectResult&)>& on_expect = {});

}  // namespace lanelab::launch
