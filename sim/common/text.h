#pragma once
// Small text helpers shared by the CLI and the reports.
#include <sstream>
#include <string>
#include <vector>

namespace lanelab {

// "a,,b" split at ',' gives {"a", "b"}: empty items are dropped.
inline std::vector<std::string> split_nonempty(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

}  // namespace lanelab
