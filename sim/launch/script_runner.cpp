#include "sim/launch/script_runner.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "sim/common/error.h"

namespace lanelab::launch {
namespace {

Place place_at(const std::string& file, int line) {
  Place place;
  place.file = file;
  place.line = line;
  return place;
}

const BufferData& find_buffer(const std::map<std::string, BufferData>& buffers, const std::string& name, int line) {
  auto found = buffers.find(name);
  if (found == buffers.end()) throw Error("unknown buffer '" + name + "'", place_at("", line));
  return found->second;
}

std::string number_text(double value) {
  char text[64];
  auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

std::string comparison_name(Comparison comparison) {
  static const char* names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  return names[int(comparison)];
}

template <typename T>
bool compare(Comparison comparison, T actual, T expected) {
  switch (comparison) {
    case Comparison::Eq: return actual == expected;
    case Comparison::Ne: return actual != expected;
    case Comparison::Lt: return actual < expected;
    case Comparison::Le: return actual <= expected;
    case Comparison::Gt: return actual > expected;
    case Comparison::Ge: return actual >= expected;
  }
  return false;
}

// Amber's rule: a percent tolerance is relative to the expected value.
bool within(double actual, double expected, const Tolerance& tolerance) {
  double difference = std::fabs(actual - expected);
  double limit = tolerance.percent ? std::fabs(expected) * tolerance.value / 100.0 : tolerance.value;
  return difference <= limit;
}

std::string tolerance_text(const Tolerance& tolerance) {
  return number_text(tolerance.value) + (tolerance.percent ? "%" : "");
}

int64_t sign_extend(uint64_t bits, uint32_t width) {
  unsigned shift = 64 - width;
  return int64_t(bits << shift) >> shift;
}

// One scalar of the buffer's type holding the expected value, so it is rounded
// to the buffer's precision (0.1 in a float buffer is the float nearest 0.1).
BufferData expected_value(const BufferData& buffer, const std::string& literal, int line) {
  BufferData value{buffer.name, buffer.type, Layout::Std430, 0, {}};
  value.type.rows = value.type.columns = 1;
  value.type.array = false;
  value.resize(1);
  try {
    value.set_scalar(0, literal);
  } catch (const Error& error) {
    throw Error(error.message(), place_at("", line));
  }
  return value;
}

bool value_matches(const ExpectCommand& expect, const BufferData& buffer, uint64_t i, const BufferData& expected) {
  uint64_t component = i % buffer.scalars_per_element();
  if (!expect.tolerances.empty()) {
    const Tolerance& tolerance = expect.tolerances[component % expect.tolerances.size()];
    return within(buffer.scalar_as_double(i), expected.scalar_as_double(0), tolerance);
  }
  switch (buffer.type.kind) {
    case ScalarKind::Float:
      return compare(expect.comparison, buffer.scalar_as_double(i), expected.scalar_as_double(0));
    case ScalarKind::Int:
      return compare(expect.comparison, sign_extend(buffer.scalar_bits(i), buffer.type.bits),
                     sign_extend(expected.scalar_bits(0), buffer.type.bits));
    case ScalarKind::Uint:
      return compare(expect.comparison, buffer.scalar_bits(i), expected.scalar_bits(0));
  }
  return false;
}

uint64_t first_scalar_at(const ExpectCommand& expect, const BufferData& buffer) {
  uint64_t size = buffer.bytes.size();
  auto past_end = [&](const std::string& what) {
    return Error(what + " past end of buffer '" + buffer.name + "' (" + std::to_string(size) + " bytes)",
                 place_at("", expect.line));
  };
  if (expect.byte_offset >= size) throw past_end("EXPECT offset " + std::to_string(expect.byte_offset));
  uint64_t element = expect.byte_offset / buffer.element_stride();
  uint64_t first = element * buffer.scalars_per_element();
  for (uint64_t i = first; i < first + buffer.scalars_per_element(); ++i) {
    if (buffer.scalar_offset(i) != expect.byte_offset) continue;
    if (i + expect.values.size() > buffer.scalar_count())
      throw past_end("EXPECT of " + std::to_string(expect.values.size()) + " values at offset " +
                     std::to_string(expect.byte_offset) + " runs");
    return i;
  }
  throw Error("EXPECT offset " + std::to_string(expect.byte_offset) + " is not the start of a value in buffer '" +
                  buffer.name + "' (" + buffer.type.str() + ")",
              place_at("", expect.line));
}

std::string mismatch_message(const ExpectCommand& expect, const BufferData& buffer, uint64_t i,
                             const BufferData& expected) {
  uint64_t per_element = buffer.scalars_per_element();
  std::string message = "EXPECT " + buffer.name + " IDX " + std::to_string(expect.byte_offset) + " " +
                        comparison_name(expect.comparison) + " failed at element " + std::to_string(i / per_element);
  if (per_element > 1) message += ", component " + std::to_string(i % per_element);
  message += " (byte offset " + std::to_string(buffer.scalar_offset(i)) + "): expected ";
  if (expect.comparison != Comparison::Eq) message += comparison_name(expect.comparison) + " ";
  message += expected.scalar_text(0);
  if (!expect.tolerances.empty()) {
    message += " within " + tolerance_text(expect.tolerances[(i % per_element) % expect.tolerances.size()]);
  }
  return message + ", got " + buffer.scalar_text(i);
}

ExpectResult check_values(const ExpectCommand& expect, const BufferData& buffer) {
  ExpectResult result{expect.line, true, ""};
  uint64_t first = first_scalar_at(expect, buffer);
  for (uint64_t k = 0; k < expect.values.size(); ++k) {
    BufferData expected = expected_value(buffer, expect.values[k], expect.line);
    if (value_matches(expect, buffer, first + k, expected)) continue;
    result.passed = false;
    result.message = mismatch_message(expect, buffer, first + k, expected);
    return result;
  }
  return result;
}

std::string element_text(const BufferData& buffer, uint64_t element) {
  std::string text;
  uint64_t per_element = buffer.scalars_per_element();
  for (uint64_t i = element * per_element; i < (element + 1) * per_element && i < buffer.scalar_count(); ++i)
    text += (text.empty() ? "" : " ") + buffer.scalar_text(i);
  return text;
}

// Buffers of equal size may still differ in type; values are compared as the first one reads them.
std::optional<uint64_t> first_differing_scalar(const BufferData& actual, const BufferData& expected) {
  for (uint64_t i = 0; i < actual.scalar_count(); ++i) {
    uint64_t offset = actual.scalar_offset(i);
    uint64_t size = actual.type.bits / 8;
    if (!std::equal(actual.bytes.begin() + long(offset), actual.bytes.begin() + long(offset + size),
                    expected.bytes.begin() + long(offset)))
      return i;
  }
  return std::nullopt;
}

ExpectResult check_equal_buffers(const ExpectCommand& expect, const BufferData& actual, const BufferData& expected) {
  ExpectResult result{expect.line, false, ""};
  std::string names = "buffer '" + actual.name + "'";
  if (actual.bytes.size() != expected.bytes.size()) {
    result.message = names + " has " + std::to_string(actual.bytes.size()) + " bytes but '" + expected.name +
                     "' has " + std::to_string(expected.bytes.size());
    return result;
  }
  auto [mine, theirs] = std::ranges::mismatch(actual.bytes, expected.bytes);
  if (mine == actual.bytes.end()) {
    result.passed = true;
    return result;
  }
  uint64_t byte = uint64_t(mine - actual.bytes.begin());
  std::optional<uint64_t> scalar = first_differing_scalar(actual, expected);
  if (!scalar) {
    result.message = names + " differs from '" + expected.name + "' only in padding, at byte offset " +
                     std::to_string(byte);
    return result;
  }
  uint64_t per_element = actual.scalars_per_element();
  uint64_t element = *scalar / per_element;
  result.message = names + " differs from '" + expected.name + "' at element " + std::to_string(element);
  if (per_element > 1) result.message += ", component " + std::to_string(*scalar % per_element);
  result.message += " (byte offset " + std::to_string(actual.scalar_offset(*scalar)) + "): expected " +
                    element_text(expected, element) + ", got " + element_text(actual, element);
  return result;
}

ExpectResult check_rmse(const ExpectCommand& expect, const BufferData& actual, const BufferData& expected) {
  ExpectResult result{expect.line, false, ""};
  if (actual.scalar_count() != expected.scalar_count()) {
    result.message = "buffer '" + actual.name + "' has " + std::to_string(actual.scalar_count()) + " values but '" +
                     expected.name + "' has " + std::to_string(expected.scalar_count());
    return result;
  }
  double sum = 0.0;
  for (uint64_t i = 0; i < actual.scalar_count(); ++i) {
    double difference = actual.scalar_as_double(i) - expected.scalar_as_double(i);
    sum += difference * difference;
  }
  double rmse = actual.scalar_count() ? std::sqrt(sum / double(actual.scalar_count())) : 0.0;
  result.passed = rmse <= expect.rmse_tolerance;
  if (!result.passed)
    result.message = "RMSE of buffer '" + actual.name + "' against '" + expected.name + "' is " + number_text(rmse) +
                     ", above tolerance " + number_text(expect.rmse_tolerance);
  return result;
}

class Interpreter {
 public:
  Interpreter(const Script& script, ComputeBackend& backend, const std::function<void(const ExpectResult&)>& on_expect)
      : script_(script), backend_(backend), on_expect_(on_expect) {
    result_.buffers = script.buffers;
  }

  ScriptResult run() {
    backend_.require(script_);
    for (const auto& command : script_.commands) execute(command);
    return std::move(result_);
  }

 private:
  void execute(const Command& command) {
    std::visit([this](const auto& c) { execute(c); }, command);
  }

  void execute(const RunCommand& run) {
    backend_.dispatch(script_, script_.pipeline(run.pipeline), run, result_.buffers);
  }

  void execute(const CopyCommand& copy) {
    const BufferData& from = buffer(copy.from, copy.line);
    BufferData& to = buffer(copy.to, copy.line);
    std::string name = to.name;
    to = from;
    to.name = name;
  }

  void execute(const RepeatCommand& repeat) {
    for (uint32_t i = 0; i < repeat.count; ++i)
      for (const auto& command : repeat.body) execute(command);
  }

  void execute(const ExpectCommand& expect) {
    ExpectResult outcome;
    try {
      outcome = evaluate_expect(expect, result_.buffers);
    } catch (const Error& error) {
      throw Error(error.message(), place_at(script_.path, expect.line));
    }
    result_.expects.push_back(outcome);
    if (on_expect_) on_expect_(outcome);
  }

  BufferData& buffer(const std::string& name, int line) {
    auto found = result_.buffers.find(name);
    if (found == result_.buffers.end()) throw Error("unknown buffer '" + name + "'", place_at(script_.path, line));
    return found->second;
  }

  const Script& script_;
  ComputeBackend& backend_;
  const std::function<void(const ExpectResult&)>& on_expect_;
  ScriptResult result_;
};

}  // namespace

bool ScriptResult::all_passed() const {
  return std::ranges::all_of(expects, &ExpectResult::passed);
}

ExpectResult evaluate_expect(const ExpectCommand& expect, const std::map<std::string, BufferData>& buffers) {
  const BufferData& buffer = find_buffer(buffers, expect.buffer, expect.line);
  switch (expect.kind) {
    case ExpectCommand::Kind::Values:
      return check_values(expect, buffer);
    case ExpectCommand::Kind::EqBuffer:
      return check_equal_buffers(expect, buffer, find_buffer(buffers, expect.other_buffer, expect.line));
    case ExpectCommand::Kind::RmseBuffer:
      return check_rmse(expect, buffer, find_buffer(buffers, expect.other_buffer, expect.line));
  }
  return {};
}

ScriptResult run_script(const Script& script, ComputeBackend& backend,
                        const std::function<void(const ExpectResult&)>& on_expect) {
  return Interpreter(script, backend, on_expect).run();
}

}  // namespace lanelab::launch
