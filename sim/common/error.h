#pragma once
// The one project error type. Every refusal (bad input, unsupported opcode,
// out-of-bounds access, divergent barrier, runaway loop) is thrown as an Error
// carrying its place, and printed once at the CLI boundary.
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace lanelab {

// Where something happened: a source position and, during execution, which
// workgroup / subgroup / lane was running.
struct Place {
  std::string file;
  int line = 0;
  std::optional<std::array<uint32_t, 3>> workgroup;
  std::optional<uint32_t> subgroup;
  std::optional<uint32_t> lane;

  std::string str() const;  // "file:line (workgroup (x,y,z), subgroup s, lane l)"
};

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message, Place place = {});
  const Place& place() const { return place_; }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
  Place place_;
};

}  // namespace lanelab
