#include "sim/common/error.h"

namespace lanelab {

std::string Place::str() const {
  std::string s;
  if (!file.empty()) {
    s = file;
    if (line > 0) s += ":" + std::to_string(line);
  }
  std::string exec;
  if (workgroup) {
    exec = "workgroup (" + std::to_string((*workgroup)[0]) + "," + std::to_string((*workgroup)[1]) +
           "," + std::to_string((*workgroup)[2]) + ")";
  }
  if (subgroup) exec += (exec.empty() ? "" : ", ") + std::string("subgroup ") + std::to_string(*subgroup);
  if (lane) exec += (exec.empty() ? "" : ", ") + std::string("lane ") + std::to_string(*lane);
  if (!exec.empty()) s += (s.empty() ? "" : " ") + ("(" + exec + ")");
  return s;
}

static std::string compose(const std::string& message, const Place& place) {
  std::string where = place.str();
  return where.empty() ? message : where + ": " + message;
}

Error::Error(std::string message, Place place)
    : std::runtime_error(compose(message, place)), message_(std::move(message)), place_(std::move(place)) {}

}  // namespace lanelab
