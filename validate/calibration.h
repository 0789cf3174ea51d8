#pragma once
// Calibration: fits a device model's free parameters to microbenchmark
// measurements (the "micro" sweep, kernels/micro/) by least squares, keeps
// each within the bounds its source allows, and writes a new device file that
// says for every field whether it was measured, fitted or kept from the
// documents, with the fit residuals and the results file behind it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/devices/device_model.h"

namespace lanelab::validate {

// y = intercept + slope * x by least squares (Eigen); one point gives the
// line through the origin-offset `fallback_intercept`.
struct LineFit {
  double intercept = 0, slope = 0;
  double rms_residual = 0;       // in y's unit
  double relative_residual = 0;  // rms residual / mean |y|
  size_t points = 0;
};
LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y, double fallback_intercept = 0);

struct CalibratedField {
  std::string field;       // device-file field, "latency_cycles.int" for the nested ones
  std::string status;      // "measured", "fitted", "rejected", "estimated" or "documented"
  double base_value = 0;   // the base model's
  double raw_value = 0;    // what the measurements say, before the bounds
  double value = 0;        // what the new file holds
  double lower = 0, upper = 0;
  bool clamped = false;
  bool integer = false;    // the device file holds it as an integer (cycles, lanes)
  std::string how;         // which benchmark and formula
  double relative_residual = 0;
  size_t points = 0;
};

struct Calibration {
  std::vector<CalibratedField> fields;
  nlohmann::json derived;  // numbers no model field holds: conflict cost per way, L2 bandwidth, loading knee...
  nlohmann::json device;   // the new device file
};

// `records` are results files' lines (others than workload "micro" and
// failed ones are ignored); `results_file` names the files they come from,
// as the new device file cites them; `base_json` is the base model's file as read.
// Throws Error when there are no usable micro measurements.
Calibration calibrate(const std::vector<nlohmann::json>& records, const DeviceModel& base,
                      const nlohmann::json& base_json, const std::string& results_file, const std::string& name);

}  // namespace lanelab::validate
