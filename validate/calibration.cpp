#include "validate/calibration.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include <Eigen/Dense>

#include "kernels/micro/micro_workload.h"
#include "kernels/workload.h"
#include "sim/common/error.h"
#include "sim/core/lane_mask.h"
#include "sim/timing/bank_model.h"
#include "sim/timing/occupancy.h"
#include "sim/timing/timing_model.h"
#include "validate/timing_stats.h"

namespace lanelab::validate {

namespace {

using nlohmann::json;

// One micro measurement: the benchmark, its parameters and the median time of
// its timed dispatch.
struct Point {
  std::string bench;
  std::map<std::string, double> params;
  std::map<std::string, std::string> choices;  // the parameters that are not numbers
  double ns = 0;
  double launch_overhead_ns = 0;
  double total_ns = 0;  // a sequence of dispatches: from the first one's start to the last one's end
  std::vector<double> repeat_ns;  // each timed repeat's ns, in the order they ran (where the record keeps them)
  uint32_t registers = 0;  // per lane, as the driver compiled it (0: not recorded)
  double x = 0;  // what a fit puts on its x axis (steps, workgroups, ways ...)
};

using Points = std::vector<Point>;

// Empty-kernel points this far above the line through the other workgroup
// sizes' points are bound by their slots' turnover, not by the launch interval.
constexpr double kAboveTheLaunchLine = 1.05;

double param(const Point& p, const std::string& name) {
  auto it = p.params.find(name);
  return it == p.params.end() ? 0 : it->second;
}

double steps(const Point& p) { return param(p, "iterations") * kernels::kMicroStepsPerIteration; }

Points with_bench(const Points& all, const std::string& bench) {
  Points out;
  for (const Point& p : all)
    if (p.bench == bench) out.push_back(p);
  return out;
}

// Nanoseconds per step of a latency benchmark: the slope of time against
// steps where the points differ in iterations (the launch falls into the
// intercept), else each point's time less the device's empty-kernel launch.
LineFit per_step_ns(const Points& points) {
  std::vector<double> x, y;
  double overhead = 0;
  for (const Point& p : points) {
    x.push_back(steps(p));
    y.push_back(p.ns);
    overhead += p.launch_overhead_ns / double(points.size());
  }
  return fit_line(x, y, overhead);
}

// Bounds: latencies are at least one cycle; a field taken from a document
// (whitepaper, datasheet) that states a peak cannot be exceeded by a
// measurement and is taken to be reached at least halfway; a field the base
// model only estimates may move by a factor of 16 either way.
struct Bounds {
  double lower, upper;
};

bool is_estimate(const DeviceModel& base, const std::string& source_field) {
  auto it = base.sources.find(source_field);
  return it == base.sources.end() || it->second.rfind("estimate", 0) == 0;
}

Bounds bounds_for(const DeviceModel& base, const std::string& source_field, double base_value, bool is_peak,
                  double at_least) {
  if (is_peak && !is_estimate(base, source_field)) return {std::max(at_least, base_value / 2), base_value};
  // A term the base model leaves out (0: no L2, no launch limit) has nothing to bound it.
  if (base_value <= 0) return {at_least, std::numeric_limits<double>::max()};
  return {std::max(at_least, base_value / 16), base_value * 16};
}

class Fitter {
 public:
  Fitter(const DeviceModel& base) : base_(base) {}

  void set(const std::string& field, const std::string& source_field, double base_value, double raw,
           const std::string& status, const std::string& how, const LineFit& fit, bool is_peak, double at_least,
           bool integer) {
    CalibratedField f;
    f.field = field;
    f.status = status;
    f.base_value = base_value;
    f.raw_value = raw;
    const Bounds b = bounds_for(base_, source_field, base_value, is_peak, at_least);
    f.lower = b.lower;
    f.upper = b.upper;
    double v = std::clamp(raw, b.lower, b.upper);
    if (integer) v = std::clamp(std::round(v), std::ceil(b.lower), std::floor(b.upper));
    f.integer = integer;
    f.value = v;
    f.clamped = !(raw >= b.lower && raw <= b.upper);
    // A peak measured below half its documented value says the benchmark
    // never reached the peak (it was bound by something else): the document
    // stands, and the file says why.
    if (is_peak && raw < b.lower) {
      f.value = base_value;
      f.clamped = false;
      f.status = "rejected";
    }
    f.how = how;
    f.relative_residual = fit.relative_residual;
    f.points = fit.points;
    fields.push_back(f);
  }

  const CalibratedField* find(const std::string& field) const {
    for (const auto& f : fields)
      if (f.field == field) return &f;
    return nullptr;
  }

  // Removes a field set before, for a fit with the model in the loop to set
  // it again, and returns it.
  CalibratedField take(const std::string& field) {
    const auto at =
        std::find_if(fields.begin(), fields.end(), [&](const CalibratedField& f) { return f.field == field; });
    const CalibratedField taken = *at;
    fields.erase(at);
    return taken;
  }

  std::vector<CalibratedField> fields;

 private:
  const DeviceModel& base_;
};

std::string status_of(const LineFit& fit) { return fit.points >= 2 ? "fitted" : "measured"; }

json fit_json(const LineFit& fit) {
  return {{"intercept", fit.intercept}, {"slope", fit.slope}, {"rms_residual", fit.rms_residual},
          {"relative_residual", fit.relative_residual}, {"points", fit.points}};
}

// The fit's residuals over its points: rms, and rms / mean |y|.
void set_residuals(LineFit& fit, const std::vector<double>& x, const std::vector<double>& y) {
  double squares = 0, magnitude = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - (fit.intercept + fit.slope * x[i]);
    squares += r * r;
    magnitude += std::abs(y[i]);
  }
  fit.rms_residual = std::sqrt(squares / double(x.size()));
  fit.relative_residual = magnitude > 0 ? fit.rms_residual / (magnitude / double(x.size())) : 0;
}

// y = slope * x by least squares: a line through the origin.
LineFit fit_through_origin(const std::vector<double>& x, const std::vector<double>& y) {
  LineFit fit;
  fit.points = x.size();
  if (x.empty()) return fit;
  double xy = 0, xx = 0;
  for (size_t i = 0; i < x.size(); ++i) xy += x[i] * y[i], xx += x[i] * x[i];
  fit.slope = xy / xx;
  set_residuals(fit, x, y);
  return fit;
}

}  // namespace

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y, double fallback_intercept) {
  LineFit fit;
  fit.points = x.size();
  if (x.empty()) return fit;
  const std::set<double> distinct(x.begin(), x.end());
  if (distinct.size() < 2) {
    // One abscissa: the slope through the given intercept, averaged over the points.
    fit.intercept = fallback_intercept;
    double sum = 0;
    for (size_t i = 0; i < x.size(); ++i) sum += (y[i] - fallback_intercept) / x[i];
    fit.slope = sum / double(x.size());
    fit.points = 1;
  } else {
    Eigen::MatrixXd design(x.size(), 2);
    Eigen::VectorXd target(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      design(i, 0) = 1;
      design(i, 1) = x[i];
      target(i) = y[i];
    }
    const Eigen::Vector2d solution = design.colPivHouseholderQr().solve(target);
    fit.intercept = solution(0);
    fit.slope = solution(1);
  }
  set_residuals(fit, x, y);
  return fit;
}

Calibration calibrate(const std::vector<json>& records, const DeviceModel& base, const json& base_json,
                      const std::string& results_file, const std::string& name) {
  Points all;
  std::set<std::string> dates, devices;
  for (const json& r : records) {
    if (r.value("workload", "") != "micro" || !r.contains("timing")) continue;
    if (r["correctness"].value("status", "") != "passed") continue;
    Point p;
    p.params = {};
    for (const auto& [key, value] : r["params"].items()) {
      if (key == "bench") {
        p.bench = value.get<std::string>();
        continue;
      }
      try {
        p.params[key] = std::stod(value.get<std::string>());
      } catch (const std::exception&) {
        p.choices[key] = value.get<std::string>();
      }
    }
    p.ns = r["timing"]["timed_stats"]["median"].get<double>();
    p.launch_overhead_ns = r.value("launch_overhead_ns", 0.0);
    // A sequence's total runs from the first dispatch's start to the last
    // one's end, the gaps between them included.
    const json& timing = r["timing"];
    p.total_ns = timing.contains("stats") ? timing["stats"]["median"].get<double>() : p.ns;
    if (timing.contains("timed_ns")) p.repeat_ns = timing["timed_ns"].get<std::vector<double>>();
    if (r.contains("kernel_statistics") && r["kernel_statistics"].is_object())
      for (const auto& [pipeline, statistics] : r["kernel_statistics"].items())
        if (statistics.is_object()) p.registers = statistics.value("Register Count", 0u);
    all.push_back(p);
    dates.insert(r.value("date", ""));
    if (r.contains("device")) devices.insert(r["device"].value("name", ""));
  }
  if (all.empty()) throw Error(results_file + " holds no passed measurements of the micro workload (lanelab validate --sweep micro)");

  const double ghz = base.clock_mhz / 1000.0;
  // Cycles per step of one point: its time less the device's empty-kernel launch.
  const auto cycles_per_step = [&](const Point& p) { return (p.ns - p.launch_overhead_ns) / steps(p) * ghz; };
  Fitter fitter(base);
  json derived = json::object();
  // A time a dispatch holds besides, measured as `ns` (a median over
  // `points`): the field in us, and the derived figure in ns.
  const auto set_measured_us = [&](const std::string& field, double base_value, double ns, size_t points,
                                   const std::string& how) {
    LineFit spread;
    spread.points = points;
    derived[field.substr(0, field.size() - 3) + "_ns"] = ns;
    fitter.set(field, field, base_value, ns / 1000.0, "measured", how, spread, false, 0.001, false);
  };

  // Dependent-chain latencies: cycles per step = ns per step x clock.
  auto latency = [&](const std::string& bench) -> std::pair<double, LineFit> {
    const Points points = with_bench(all, bench);
    if (points.empty()) return {0, LineFit{}};
    const LineFit fit = per_step_ns(points);
    derived[bench + "_cycles"] = fit.slope * ghz;
    derived[bench + "_fit"] = fit_json(fit);
    return {fit.slope * ghz, fit};
  };
  // Integer latency: a simple operation's from the add-and-xor chain (two a
  // step), a multiply-add's from its own chain; a file without the first
  // takes both from the multiply-adds.
  const auto [multiply_cycles, multiply_fit] = latency("alu_latency_int");
  auto [add_xor_cycles, add_xor_fit] = latency("alu_latency_add_xor");
  add_xor_cycles /= 2;
  if (add_xor_fit.points) derived["alu_latency_add_xor_cycles_per_operation"] = add_xor_cycles;
  const bool simple_measured = add_xor_fit.points > 0;
  const double int_cycles = simple_measured ? add_xor_cycles : multiply_cycles;
  const LineFit int_fit = simple_measured ? add_xor_fit : multiply_fit;
  if (int_fit.points)
    fitter.set("latency_cycles.int", "latency_cycles", base.latency_cycles.int_op, int_cycles, status_of(int_fit),
               simple_measured ? "alu_latency_add_xor: slope of time against dependent integer add-xor steps x clock / 2"
                               : "alu_latency_int: slope of time against dependent integer multiply-adds x clock",
               int_fit, false, 1, true);
  if (simple_measured && multiply_fit.points)
    fitter.set("latency_cycles.int_multiply", "latency_cycles", base.latency_cycles.int_multiply, multiply_cycles,
               status_of(multiply_fit), "alu_latency_int: slope of time against dependent integer multiply-adds x clock",
               multiply_fit, false, 1, true);
  const auto [float_cycles, float_fit] = latency("alu_latency_float");
  if (float_fit.points)
    fitter.set("latency_cycles.float", "latency_cycles", base.latency_cycles.float_op, float_cycles,
               status_of(float_fit), "alu_latency_float: slope of time against dependent fmas x clock", float_fit,
               false, 1, true);
  // A remainder by a run-time divisor (and the or that makes the divisor)
  // only reports: DeviceModel::integer_divide_instructions counts the
  // driver's sequence, which no one latency or pipe width times.
  latency("alu_latency_remainder");
  // A step of the add-min chain is one instruction where the device fuses
  // the add into the min (VIADDMNMX); elsewhere it is two, and the field stays.
  const auto [add_min_cycles, add_min_fit] = latency("alu_latency_add_min");
  if (add_min_fit.points && base.fused_add_min_max)
    fitter.set("latency_cycles.add_min_max", "latency_cycles", base.latency_cycles.add_min_max, add_min_cycles,
               status_of(add_min_fit), "alu_latency_add_min: slope of time against dependent add-min steps x clock",
               add_min_fit, false, 1, true);
  auto [shared_cycles, shared_fit] = latency("shared_latency");
  if (shared_fit.points)
    fitter.set("latency_cycles.shared", "latency_cycles", base.latency_cycles.shared, shared_cycles,
               status_of(shared_fit), "shared_latency: slope of time against dependent shared loads x clock",
               shared_fit, false, 1, true);
  const auto [local_cycles, local_fit] = latency("local_latency");
  if (local_fit.points)
    fitter.set("latency_cycles.local", "latency_cycles", base.latency_cycles.local, local_cycles,
               status_of(local_fit), "local_latency: slope of time against dependent private-array loads x clock",
               local_fit, false, 1, true);
  const double add_cycles = int_fit.points ? int_cycles : base.latency_cycles.int_op;
  for (const std::string bench : {"shuffle", "ballot", "reduce"}) {
    const auto [cycles, fit] = latency(bench);
    if (!fit.points) continue;
    derived[bench + "_cycles_without_add"] = cycles - add_cycles;
    if (bench == "shuffle")
      fitter.set("latency_cycles.shuffle", "latency_cycles", base.latency_cycles.shuffle, cycles - add_cycles,
                 status_of(fit), "shuffle: cycles per step less the integer add that follows each shuffle", fit,
                 false, 1, true);
    // Where the device reduces a 32-bit integer in one instruction, the
    // reduce chain's subgroupMax is that instruction; elsewhere it is a
    // butterfly of the shuffles above, and the chain says nothing new.
    if (bench == "reduce" && base.latency_cycles.subgroup_reduce > 0)
      fitter.set("latency_cycles.subgroup_reduce", "latency_cycles", base.latency_cycles.subgroup_reduce,
                 cycles - add_cycles, status_of(fit),
                 "reduce: cycles per step less the integer add that follows each subgroupMax", fit, false, 1, true);
  }

  // A benchmark that fills every compute unit: cycles per step of every
  // subgroup on a compute unit, the slope of time against steps x clock x
  // compute units / subgroups in the dispatch.
  auto cycles_per_subgroup_step_per_cu = [&](const Points& points) -> std::pair<double, LineFit> {
    const LineFit fit = per_step_ns(points);
    const Point& p = points.front();
    const double subgroups =
        param(p, "workgroups") * std::ceil(param(p, "workgroup_size") / double(std::max(1u, base.subgroup_size)));
    return {fit.slope * ghz * base.compute_units / subgroups, fit};
  };

  // Subgroup throughput: every compute unit full of subgroups that issue
  // independent shuffles (or ballots), one integer add (three for a ballot)
  // beside each: the shared-memory pipe, not issue, bounds them, and its
  // cycles per operation are those per step.
  for (const std::string bench : {"shuffle_throughput", "ballot_throughput"}) {
    const Points points = with_bench(all, bench);
    if (points.empty()) continue;
    const auto [cycles, fit] = cycles_per_subgroup_step_per_cu(points);
    derived[bench + "_cycles_per_cu"] = cycles;
    derived[bench + "_fit"] = fit_json(fit);
    const bool vote = bench == "ballot_throughput";
    fitter.set(vote ? "subgroup_vote_cycles" : "subgroup_shuffle_cycles",
               vote ? "subgroup_vote_cycles" : "subgroup_shuffle_cycles",
               vote ? base.subgroup_vote_cycles : base.subgroup_shuffle_cycles, cycles, status_of(fit),
               bench + ": slope of time against operations per compute unit x clock", fit, false, 0, false);
  }

  json barrier_pipe_by_subgroups = json::array();
  const std::string barrier_how =
      "barrier_throughput: (cycles per subgroup step per compute unit - a store and a load wavefront) / 2 barriers";
  // Barrier throughput: the barrier benchmark with every compute unit full
  // of workgroups, the shared-memory pipe bound: a step per subgroup holds it
  // one wavefront for its store, one for its load, and two barrier arrivals.
  // Run at several workgroup sizes, each size's arrival is a point of
  // DeviceModel::barrier_pipe_cycles_by_subgroups; at one size alone it is
  // barrier_pipe_cycles.
  {
    std::map<uint32_t, Points> by_subgroups;
    for (const Point& p : with_bench(all, "barrier_throughput"))
      by_subgroups[uint32_t(std::ceil(param(p, "workgroup_size") / double(std::max(1u, base.subgroup_size))))]
          .push_back(p);
    json steps = json::object();
    for (const auto& [subgroups, points] : by_subgroups) {
      const auto [cycles, fit] = cycles_per_subgroup_step_per_cu(points);
      const double arrival = (cycles - 2) / 2;
      if (by_subgroups.size() == 1) {
        derived["barrier_throughput_cycles_per_subgroup_step_per_cu"] = cycles;
        derived["barrier_throughput_fit"] = fit_json(fit);
        fitter.set("barrier_pipe_cycles", "barrier_pipe_cycles", base.barrier_pipe_cycles, arrival, status_of(fit),
                   barrier_how, fit, false, 0, false);
      } else {
        steps[std::to_string(subgroups)] = {{"cycles_per_subgroup_step_per_cu", cycles}, {"fit", fit_json(fit)}};
        barrier_pipe_by_subgroups.push_back({subgroups, std::max(0.0, arrival)});
      }
    }
    if (by_subgroups.size() > 1) derived["barrier_throughput_by_subgroups"] = steps;
  }

  // Bank conflicts: cycles per load against the ways of the conflict.
  {
    std::vector<double> ways, cycles;
    for (const Point& p : with_bench(all, "bank_conflict")) {
      ways.push_back(param(p, "ways"));
      cycles.push_back(cycles_per_step(p));
    }
    if (!ways.empty()) {
      std::vector<double> extra;
      for (double w : ways) extra.push_back(w - 1);
      const LineFit fit = fit_line(extra, cycles, cycles.front());
      derived["bank_conflict_cycles_at_1_way"] = fit.intercept;
      derived["bank_conflict_cycles_per_extra_way"] = fit.slope;
      derived["bank_conflict_fit"] = fit_json(fit);
      json table = json::object();
      for (size_t i = 0; i < ways.size(); ++i) table[std::to_string(int(ways[i]))] = cycles[i];
      derived["bank_conflict_cycles_by_ways"] = table;
      if (fit.points >= 2)
        fitter.set("bank_replay_cycles", "bank_replay_cycles", base.bank_replay_cycles, fit.slope, "fitted",
                   "bank_conflict: slope of cycles per load against extra ways", fit, false, 0, false);
      if (!shared_fit.points && fit.points >= 2)
        fitter.set("latency_cycles.shared", "latency_cycles", base.latency_cycles.shared, fit.intercept, "fitted",
                   "bank_conflict: intercept of cycles per load against extra ways", fit, false, 1, true);
      shared_cycles = fit.points >= 2 && !shared_fit.points ? fit.intercept : shared_cycles;
    }
  }

  // Bank throughput: many subgroups on every compute unit issue independent
  // loads; cycles against the wavefronts the bank model counts for them on the
  // busiest compute unit. The slope is the pipe's cycles per wavefront (the
  // model takes 1: the documented 128 bytes per clock), per kind of load; the
  // neighbouring words are counted as the one 128-bit load a compiler makes.
  {
    const timing::DistinctWordBankModel banks(base);
    const uint32_t lanes = std::clamp(base.subgroup_size, 1u, 64u);
    json by_access = json::object();
    for (const std::string access : {"uint", "uvec4", "neighbours", "store"}) {
      std::vector<double> wavefronts, cycles;
      for (const Point& p : with_bench(all, "bank_throughput")) {
        if (p.choices.count("access") == 0 || p.choices.at("access") != access) continue;
        const bool words = access == "uint" || access == "store";
        const uint32_t bytes = words ? 4 : 16;
        std::vector<uint64_t> addresses(64, 0);
        for (uint32_t l = 0; l < lanes; ++l)
          addresses[l] = kernels::bank_throughput_element(l, uint32_t(param(p, "ways")), words, 0) * bytes;
        const double per_load = banks.access(core::full_mask(lanes), addresses.data(), bytes).wavefronts;
        const double groups_per_cu = std::ceil(param(p, "workgroups") / std::max(1u, base.compute_units));
        const double subgroups = std::ceil(param(p, "workgroup_size") / lanes);
        wavefronts.push_back(groups_per_cu * subgroups * steps(p) * per_load);
        cycles.push_back((p.ns - p.launch_overhead_ns) * ghz);
      }
      if (wavefronts.size() < 2) continue;
      const LineFit fit = fit_line(wavefronts, cycles, 0);
      by_access[access] = {{"cycles_per_wavefront", fit.slope}, {"fit", fit_json(fit)}};
    }
    if (!by_access.empty()) derived["bank_throughput"] = by_access;
  }

  // Barriers: each step is a shared store, a barrier, a shared load with an
  // add, and a barrier; cycles per step against the subgroups of the workgroup.
  {
    std::vector<double> subgroups, cycles;
    for (const Point& p : with_bench(all, "barrier")) {
      subgroups.push_back(std::max(1.0, param(p, "workgroup_size") / base.subgroup_size));
      cycles.push_back(cycles_per_step(p));
    }
    if (!subgroups.empty()) {
      const LineFit fit = fit_line(subgroups, cycles, 0);
      // One subgroup waits for no other: its step is the barrier's own latency.
      double one_subgroup = fit.points >= 2 ? fit.intercept + fit.slope : cycles.front();
      for (size_t i = 0; i < subgroups.size(); ++i)
        if (subgroups[i] == 1) one_subgroup = cycles[i];
      const double shared = shared_cycles > 0 ? shared_cycles : base.latency_cycles.shared;
      derived["barrier_step_cycles_per_subgroup"] = fit.slope;
      derived["barrier_fit"] = fit_json(fit);
      fitter.set("latency_cycles.barrier", "latency_cycles", base.latency_cycles.barrier,
                 (one_subgroup - shared - add_cycles) / 2, status_of(fit),
                 "barrier: (cycles per exchange at one subgroup - shared load - add) / 2 barriers", fit, false, 1,
                 true);
    }
  }

  json l2_retention = json::array();
  // Pointer chase: cycles per load against the lines the chase touches (one
  // per step, up to the buffer's). Each repetition follows the same lines:
  // where they fit in L2 (half of it) a buffer beyond L2 (no L1 reuse) gives
  // the L2 hit's round trip, latency_cycles.global; where they are more than
  // L2 holds, every step misses it: DRAM's, latency_cycles.dram.
  {
    json table = json::object();
    const Point* l2_hit = nullptr;
    const Point* dram = nullptr;
    const Points chases = with_bench(all, "pointer_chase");
    const double l2 = double(base.l2_bytes);
    for (const Point& p : chases) {
      const double bytes = param(p, "bytes");
      const double touched = std::min(bytes, steps(p) * kernels::kMicroChaseLineBytes);
      table[std::to_string(uint64_t(bytes)) + " bytes, " + std::to_string(uint64_t(steps(p))) + " steps"] =
          cycles_per_step(p);
      if (bytes > l2 && touched <= l2 / 2 && (!l2_hit || bytes > param(*l2_hit, "bytes"))) l2_hit = &p;
      if (touched > l2 && (!dram || bytes > param(*dram, "bytes"))) dram = &p;
    }
    if (!table.empty()) derived["pointer_chase_cycles"] = table;
    auto set_latency = [&](const Point& p, const std::string& field, uint32_t base_value, const std::string& where) {
      LineFit one;
      one.points = 1;
      fitter.set(field, "latency_cycles", base_value, cycles_per_step(p), "measured",
                 "pointer_chase: cycles per dependent load, " + std::to_string(uint64_t(param(p, "bytes"))) +
                     "-byte buffer, " + std::to_string(uint64_t(steps(p))) + " steps (" + where + ")",
                 one, false, 1, true);
    };
    if (l2_hit) set_latency(*l2_hit, "latency_cycles.global", base.latency_cycles.global, "its lines in L2");
    if (dram) set_latency(*dram, "latency_cycles.dram", base.latency_cycles.dram, "more lines than L2 holds");
    // L2's retention: a chase whose lap touches every line of its buffer
    // finds, of the lines touched a buffer ago, the share whose round trip
    // is an L2 hit's rather than DRAM's.
    if (l2_hit && dram) {
      const double hit = cycles_per_step(*l2_hit), miss = cycles_per_step(*dram);
      std::vector<const Point*> laps;
      for (const Point& p : chases)
        if (steps(p) * kernels::kMicroChaseLineBytes >= param(p, "bytes")) laps.push_back(&p);
      std::sort(laps.begin(), laps.end(),
                [&](const Point* a, const Point* b) { return param(*a, "bytes") < param(*b, "bytes"); });
      for (const Point* p : laps)
        if (l2_retention.empty() || param(*p, "bytes") > l2_retention.back()[0].get<double>())
          l2_retention.push_back(
              {param(*p, "bytes"), std::clamp((miss - cycles_per_step(*p)) / (miss - hit), 0.0, 1.0)});
    }
  }

  // Bandwidth: bytes read / (time - launch) per working set; DRAM beyond 2 x L2.
  // Run at fewer workgroups (fewer bytes in flight), each lane's iteration
  // waits out its load: the cycles of an iteration against the share of
  // DRAM's bandwidth the run reaches give its round trip under load.
  // Within L2 the plain benchmark's passes after the first read what the
  // compute unit's L1 still holds (the model has no L1), so L2's bandwidth
  // comes from bandwidth_rotated, whose passes read other compute units'
  // words, where the results have it.
  {
    json table = json::object();
    double dram = 0, cache = 0, rotated = 0;
    size_t beyond = 0;
    std::vector<std::pair<double, double>> dram_runs;  // (GB/s, cycles an iteration)
    for (const std::string bench : {"bandwidth", "bandwidth_rotated"})
      for (const Point& p : with_bench(all, bench)) {
        const double bytes = param(p, "bytes");
        const double gbps = bytes * param(p, "iterations") / std::max(1.0, p.ns - p.launch_overhead_ns);
        const double lanes = param(p, "workgroups") * kernels::kMicroBandwidthWorkgroupSize;
        const double cycles = (p.ns - p.launch_overhead_ns) * ghz / (bytes / 16 / lanes * param(p, "iterations"));
        table[(bench == "bandwidth" ? "" : "rotated, ") + std::to_string(uint64_t(bytes)) + " bytes, " +
              std::to_string(uint64_t(param(p, "workgroups"))) + " workgroups"] = {{"gbps", gbps},
                                                                                  {"cycles_per_iteration", cycles}};
        const bool within_l2 = bytes <= double(base.l2_bytes) / 2;
        if (bench == "bandwidth_rotated") {
          if (within_l2) rotated = std::max(rotated, gbps);
        } else if (bytes > 2.0 * double(base.l2_bytes)) {
          dram = std::max(dram, gbps);
          ++beyond;
          dram_runs.emplace_back(gbps, cycles);
        } else if (within_l2) {
          cache = std::max(cache, gbps);
        }
      }
    if (!table.empty()) derived["bandwidth_runs"] = table;
    if (rotated > 0 || cache > 0) {
      LineFit one;
      one.points = 1;
      fitter.set("l2_bandwidth_gbps", "l2_bandwidth_gbps", base.l2_bandwidth_gbps, rotated > 0 ? rotated : cache,
                 "measured",
                 rotated > 0 ? "bandwidth_rotated: best bytes read per second over working sets within L2 / 2, "
                               "every pass from L2"
                             : "bandwidth: best bytes read per second over working sets within L2 / 2",
                 one, false, 0.001, false);
    }
    if (beyond) {
      LineFit one;
      one.points = beyond;
      fitter.set("dram_bandwidth_gbps", "dram_bandwidth_gbps", base.dram_bandwidth_gbps, dram, "measured",
                 "bandwidth: best bytes read per second over working sets beyond 2 x L2", one, true, 0.001, false);
    }
    // dram_queue_cycles: what an iteration takes beyond the least loaded
    // run's, against u / (1 - u) at utilization u = GB/s / the best, a line
    // through the origin over the runs below kQueuedShare of the best (the
    // rest are bound by the bandwidth itself).
    constexpr double kQueuedShare = 0.95;
    std::sort(dram_runs.begin(), dram_runs.end());
    std::vector<double> load, excess;
    for (const auto& [gbps, cycles] : dram_runs)
      if (gbps < kQueuedShare * dram && dram_runs.front().first < gbps) {
        const double u = gbps / dram;
        load.push_back(u / (1 - u));
        excess.push_back(cycles - dram_runs.front().second);
      }
    if (load.size() >= 2) {
      const LineFit fit = fit_through_origin(load, excess);
      fitter.set("dram_queue_cycles", "dram_queue_cycles", base.dram_queue_cycles, fit.slope, "fitted",
                 "bandwidth beyond 2 x L2 at fewer workgroups: cycles an iteration beyond the least loaded run's "
                 "against u / (1 - u), u = GB/s / the best, below " + std::to_string(int(kQueuedShare * 100)) +
                     "% of it; slope through the origin",
                 fit, false, 0, false);
    }
  }

  // ALU throughput: lane operations per cycle per SIMD at full load.
  auto lanes_per_cycle_per_simd = [&](const Point& p) {
    const double ops = param(p, "workgroups") * param(p, "workgroup_size") * steps(p);
    return ops / std::max(1.0, p.ns - p.launch_overhead_ns) / ghz / (base.compute_units * base.simd_units_per_cu);
  };
  // A throughput only falls short of the width (the loop's own instructions,
  // the launch): the H100's 30.55 fma lanes a cycle are its 32.
  auto width_from_peak = [&](const std::string& field, uint32_t base_value, double lanes, const std::string& how) {
    LineFit one;
    one.points = 1;
    fitter.set(field, field, base_value, lanes, "measured", how + ", up to the power of two a pipe's width is", one,
               true, 1, true);
    CalibratedField& width = fitter.fields.back();
    if (width.status != "rejected")
      width.value = std::min(width.upper, double(std::bit_ceil(uint32_t(std::ceil(width.raw_value)))));
  };
  // add_min and min_max only report: they show which pipe min, max and the
  // fused add-min take (int_lanes_per_simd's; a min and a max a step); so
  // does remainder (an or and a remainder a step).
  for (const std::string bench : {"alu_throughput_int", "alu_throughput_float", "alu_throughput_logic",
                                  "alu_throughput_add_min", "alu_throughput_min_max", "alu_throughput_remainder"}) {
    double best = 0;
    for (const Point& p : with_bench(all, bench)) best = std::max(best, lanes_per_cycle_per_simd(p));
    if (best == 0) continue;
    derived[bench + "_lanes_per_cycle_per_simd"] = best;
    if (bench == "alu_throughput_float")
      width_from_peak("alu_lanes_per_simd", base.alu_lanes_per_simd, best,
                      "alu_throughput_float: fma lane operations per cycle / (compute_units x simd_units_per_cu)");
    // Where the document gives integer operations a pipe of their own: two
    // of them (a shift and a xor) a step.
    if (bench == "alu_throughput_logic" && base.int_lanes_per_simd > 0)
      width_from_peak("int_lanes_per_simd", base.int_lanes_per_simd, 2 * best,
                      "alu_throughput_logic: shift and xor lane operations (2 a step) per cycle / (compute_units x "
                      "simd_units_per_cu)");
  }

  // Loading: throughput against lanes; where it reaches 90% of its best.
  {
    std::vector<std::pair<double, double>> curve;
    for (const Point& p : with_bench(all, "loading")) {
      const double lanes = param(p, "lanes");
      curve.push_back({lanes, lanes * steps(p) / std::max(1.0, p.ns - p.launch_overhead_ns)});
    }
    std::sort(curve.begin(), curve.end());
    if (!curve.empty()) {
      double best = 0;
      json table = json::object();
      for (const auto& [lanes, rate] : curve) {
        best = std::max(best, rate);
        table[std::to_string(uint64_t(lanes))] = rate;
      }
      derived["loading_lane_ops_per_ns_by_lanes"] = table;
      for (const auto& [lanes, rate] : curve)
        if (rate >= 0.9 * best) {
          derived["loading_lanes_at_90_percent"] = lanes;
          break;
        }
      derived["loading_best_lane_ops_per_ns"] = best;
    }
  }

  // Dispatch overhead: intercept of time against workgroups of an empty
  // kernel; the launch interval its slope. Workgroups so large that a
  // compute unit holds only a few (1024 lanes: two an SM) take longer: the
  // slots turn over more slowly than the device launches. A workgroup size
  // whose every point with more workgroups than the slots hold at once lies
  // above the line through the other sizes' points is left out of the line,
  // and those points give the slot's turnover: each one's time beyond the
  // intercept over the workgroups a slot takes in turn. (One size alone
  // gives the line only.)
  // The workgroups each slot takes in turn: the dispatch's over the slots
  // the occupancy calculator gives every compute unit (one, for a record
  // that does not say its workgroup size).
  const auto turns = [&](const Point& p) {
    if (!p.params.count("workgroup_size")) return 1.0;
    KernelResources kernel;
    kernel.workgroup_size = uint32_t(param(p, "workgroup_size"));
    kernel.subgroup_size = base.subgroup_size;
    // The empty kernel's registers never bind (16 on the H100); a record
    // without the driver's count takes one.
    kernel.register_bytes_per_lane = register_bytes_from_count(std::max(1u, p.registers));
    const double slots =
        double(compute_occupancy(base, kernel).workgroups_per_cu) * std::max(1u, base.compute_units);
    return std::ceil(param(p, "workgroups") / std::max(1.0, slots));
  };
  Points slot_bound;  // kept for the turnover's refit with the model in the loop
  {
    const Points empties = with_bench(all, "empty");
    const auto line_over = [&](const Points& points) {
      std::vector<double> groups, ns;
      for (const Point& p : points) {
        groups.push_back(param(p, "workgroups"));
        ns.push_back(p.ns);
      }
      return fit_line(groups, ns, 0);
    };
    std::map<double, Points> by_size;
    for (const Point& p : empties) by_size[param(p, "workgroup_size")].push_back(p);
    std::set<double> slot_bound_sizes;
    for (const auto& [size, points] : by_size) {
      Points others;
      for (const auto& [other, more] : by_size)
        if (other != size) others.insert(others.end(), more.begin(), more.end());
      const LineFit line = line_over(others);
      bool beyond_a_wave = false, above = line.points >= 2;
      for (const Point& p : points)
        if (turns(p) >= 2) {
          beyond_a_wave = true;
          above = above && p.ns > kAboveTheLaunchLine * (line.intercept + line.slope * param(p, "workgroups"));
        }
      if (above && beyond_a_wave) slot_bound_sizes.insert(size);
    }
    Points launch_bound;  // in the records' order
    for (const Point& p : empties)
      (slot_bound_sizes.count(param(p, "workgroup_size")) && turns(p) >= 2 ? slot_bound : launch_bound).push_back(p);
    const LineFit fit = line_over(launch_bound);
    if (!empties.empty()) {
      derived["empty_ns_per_workgroup"] = fit.slope;
      derived["empty_fit"] = fit_json(fit);
      // The empty line's time at `workgroups` (one point: that point's time).
      const auto empty_ns = [&](double workgroups) {
        return fit.points >= 2 ? fit.intercept + fit.slope * workgroups : empties.front().ns;
      };
      const double intercept = empty_ns(0);
      fitter.set("dispatch_overhead_us", "dispatch_overhead_us", base.dispatch_overhead_us, intercept / 1000.0,
                 status_of(fit), "empty: intercept of time against workgroups", fit, false, 0.001, false);
      if (fit.points >= 2 && fit.slope > 0)
        fitter.set("workgroup_launch_ns", "workgroup_launch_ns", base.workgroup_launch_ns, fit.slope, "fitted",
                   "empty: slope of time against workgroups", fit, false, 0.001, false);

      std::vector<double> turnovers;
      for (const Point& p : slot_bound) turnovers.push_back((p.ns - intercept) / turns(p));
      if (!turnovers.empty()) {
        LineFit spread;
        spread.points = turnovers.size();
        fitter.set("workgroup_turnover_ns", "workgroup_turnover_ns", base.workgroup_turnover_ns,
                   summarize(turnovers).median, "measured",
                   "empty: (time - intercept) / the workgroups each slot takes in turn, median over the points beyond "
                   "one wave of a workgroup size whose every such point lies above the line through the other "
                   "sizes' (workgroups of 1024 lanes)",
                   spread, false, 0.001, false);
      }

      // What each empty dispatch that waits for the one before adds to a
      // sequence beyond its time alone (the line above), which the lone
      // dispatches never pay. Per sequence of `bench`: where the base model
      // splits it, the wait within each one's own span ((the spans' sum -
      // each dispatch's time alone) / dispatches: the first waits for the
      // repeat before's last) and the gap between spans ((the sequence's
      // time - the spans' sum) / (dispatches - 1)); otherwise all of it as
      // the gap.
      const bool split = base.dispatch_wait_us > 0;
      const auto per_dependent_dispatch = [&](const std::string& bench, bool wait) {
        std::vector<double> each;
        for (const Point& p : with_bench(all, bench)) {
          const double dispatches = param(p, "iterations");
          if (dispatches < 2) continue;
          const double alone = dispatches * empty_ns(param(p, "workgroups"));
          if (split && wait)
            each.push_back((p.ns - alone) / dispatches);
          else
            each.push_back((split ? p.total_ns - p.ns : p.total_ns - alone) / (dispatches - 1));
        }
        return each;
      };
      const std::vector<double> gaps = per_dependent_dispatch("dispatch_gap", false);
      if (!gaps.empty() && base.dispatch_gap_us > 0) {
        LineFit spread;
        spread.points = gaps.size();
        const double gap = summarize(gaps).median;
        derived["dispatch_gap_ns"] = gap;
        fitter.set("dispatch_gap_us", "dispatch_gap_us", base.dispatch_gap_us, gap / 1000.0, "measured",
                   split ? "dispatch_gap: (time of a sequence of empty dispatches - the sum of their spans) / "
                           "(dispatches - 1), median over the sequences"
                         : "dispatch_gap: (time of a sequence of empty dispatches - each one's time alone) / "
                           "(dispatches - 1), median over the sequences",
                   spread, false, 0.001, false);
        if (split) {
          const double wait = std::max(0.0, summarize(per_dependent_dispatch("dispatch_gap", true)).median);
          derived["dispatch_wait_ns"] = wait;
          fitter.set("dispatch_wait_us", "dispatch_wait_us", base.dispatch_wait_us, wait / 1000.0, "measured",
                     "dispatch_gap: (the sum of the spans of a sequence of empty dispatches - each one's time "
                     "alone) / dispatches, median over the sequences",
                     spread, false, 0.001, false);

          // The submission's last dispatches hold no wait: the repeats that
          // end it run faster than the median one by their waits. Repeats
          // less than half a wait under it are the spread's.
          std::vector<double> tails;
          for (const Point& p : with_bench(all, "dispatch_gap")) {
            if (p.repeat_ns.size() < 3 || wait <= 0) continue;
            const double median = summarize(p.repeat_ns).median;
            double missing = 0;
            for (double ns : p.repeat_ns)
              if (median - ns > wait / 2) missing += median - ns;
            tails.push_back(missing / wait);
          }
          if (!tails.empty() && base.dispatch_wait_tail > 0) {
            LineFit tail_spread;
            tail_spread.points = tails.size();
            fitter.set("dispatch_wait_tail", "dispatch_wait_tail", base.dispatch_wait_tail,
                       summarize(tails).median, "measured",
                       "dispatch_gap: (the median repeat's time - each repeat's, where it is more than half a "
                       "wait) summed / dispatch_wait_us, median over the sequences",
                       tail_spread, false, 0, false);
          }
        }

        // The same sequences with push constants set before each dispatch
        // (dispatch_push): what that adds beyond the gap.
        const std::vector<double> pushed = per_dependent_dispatch("dispatch_push", false);
        if (!pushed.empty() && base.push_constant_gap_us > 0)
          set_measured_us("push_constant_gap_us", base.push_constant_gap_us, summarize(pushed).median - gap,
                          pushed.size(),
                          "dispatch_push: the same gap of sequences with push constants set before each dispatch, "
                          "median over the sequences, less dispatch_gap_us");

        // The same sequences with every lane reading the pushed constants
        // (dispatch_push_read): what the read holds within each span beyond
        // dispatch_push's, set but not read.
        const std::vector<double> read = per_dependent_dispatch("dispatch_push_read", true);
        const std::vector<double> unread = per_dependent_dispatch("dispatch_push", true);
        if (split && !read.empty() && !unread.empty() && base.push_constant_wait_us > 0)
          set_measured_us("push_constant_wait_us", base.push_constant_wait_us,
                          std::max(0.0, summarize(read).median - summarize(unread).median), read.size(),
                          "dispatch_push_read: (the sum of the spans of a sequence whose lanes read the pushed "
                          "constants - each dispatch's time alone) / dispatches, median over the sequences, "
                          "less the same of dispatch_push");
      }
    }
  }

  // A device file: the base's, with the calibrated fields replaced.
  json fields = json::object();
  const auto device_file = [&] {
    json device = base_json;
    device["name"] = name;
    device["description"] = base_json.value("description", base.name) + "; calibrated from " +
                            std::filesystem::path(results_file).filename().string();
    fields = json::object();
    std::string latency_note;
    for (const CalibratedField& f : fitter.fields) {
      const std::string rejected =
          f.status == "rejected"
              ? "; measured " + std::to_string(f.raw_value) + ", below half the documented peak: the document's value kept"
              : "";
      const std::string what = f.status + " (" + f.how + "; " +
                               std::filesystem::path(results_file).filename().string() +
                               (f.clamped ? "; clamped to the documented bounds" : "") + rejected + ")";
      if (f.field.rfind("latency_cycles.", 0) == 0) {
        const std::string cls = f.field.substr(std::string("latency_cycles.").size());
        device["latency_cycles"][cls] = uint32_t(f.value);
        latency_note += (latency_note.empty() ? "" : "; ") + cls + ": " + what;
      } else {
        if (f.integer)
          device[f.field] = uint32_t(f.value);
        else
          device[f.field] = f.value;
        device["sources"][f.field] = what;
      }
      fields[f.field] = {{"status", f.status},         {"value", f.value},       {"raw_value", f.raw_value},
                         {"base_value", f.base_value}, {"bounds", {f.lower, f.upper}}, {"clamped", f.clamped},
                         {"how", f.how},               {"relative_residual", f.relative_residual}, {"points", f.points}};
    }
    // A curve measured point by point (no fit): its points, and what measured them.
    const auto measured_curve = [&](const std::string& field, const json& points, const std::string& how) {
      device[field] = points;
      device["sources"][field] =
          "measured (" + how + "; " + std::filesystem::path(results_file).filename().string() + ")";
      fields[field] = {{"status", "measured"}, {"how", how}, {"points", points.size()}};
    };
    if (l2_retention.size() >= 2)
      measured_curve("l2_retention", l2_retention,
                     "pointer_chase: of the chases whose lap touches every line of the buffer, (DRAM's cycles per "
                     "load - the chase's) / (DRAM's - L2's), per buffer size");
    if (!barrier_pipe_by_subgroups.empty())
      measured_curve("barrier_pipe_cycles_by_subgroups", barrier_pipe_by_subgroups,
                     barrier_how + ", at each workgroup size");
    if (!latency_note.empty())
      device["sources"]["latency_cycles"] =
          latency_note + "; other classes documented: " + base.sources.at("latency_cycles");
    // A field the benchmarks here do not fit keeps the base model's value
    // and says where that came from: a measurement made by hand (a
    // variant's records, its source says which), an estimate, or a document.
    for (const auto& [field, source] : base.sources)
      if (!fields.contains(field) && field != "latency_cycles")
        fields[field] = {{"status", source.rfind("measured", 0) == 0 ? "measured"
                                    : is_estimate(base, field)       ? "estimated"
                                                                     : "documented"}};
    return device;
  };

  // The barrier's cost, fitted with the timing model in the loop: the barrier
  // benchmark's steps are predicted on the device calibrated so far, and
  // what the prediction lacks per barrier (two a step) goes to the barrier:
  // at one subgroup to its latency, at 2 to 32 subgroups to a line in the
  // subgroups beyond the first, barrier_sync_cycles +
  // barrier_subgroup_cycles x (subgroups - 1). Further passes refit the
  // remainder, as a longer barrier also shifts what overlaps with it.
  {
    const Points points = with_bench(all, "barrier");
    size_t synchronizing = 0;
    for (const Point& p : points) synchronizing += param(p, "workgroup_size") > base.subgroup_size;
    const CalibratedField* latency_field = fitter.find("latency_cycles.barrier");
    if (synchronizing >= 2 && latency_field) {
      double latency = latency_field->value, sync = 0, per_subgroup = 0, alone_missing = 0;
      LineFit fit;
      for (int pass = 0; pass < 6; ++pass) {
        json provisional = device_file();
        provisional["latency_cycles"]["barrier"] = uint32_t(std::max(1.0, std::round(latency)));
        provisional["barrier_sync_cycles"] = sync;
        provisional["barrier_subgroup_cycles"] = per_subgroup;
        provisional["sources"]["barrier_sync_cycles"] = provisional["sources"]["barrier_subgroup_cycles"] = "fitting";
        const DeviceModel model = parse_device_model(provisional, name + " (being calibrated)");
        std::vector<double> beyond_first, missing;
        double measured = 0;  // cycles per barrier step, summed
        for (const Point& p : points) {
          kernels::Params params = {{"bench", "barrier"}};
          for (const auto& [key, value] : p.params) params[key] = std::to_string(uint64_t(value));
          const kernels::Workload& micro = *kernels::find_workload("micro");
          const timing::Prediction predicted =
              timing::predict(micro.build(micro.with_defaults(params)), model, timing::TimingOptions{});
          const double lacking = (p.ns - predicted.seconds * 1e9) * ghz / (2 * steps(p));
          const double subgroups = std::ceil(param(p, "workgroup_size") / base.subgroup_size);
          if (subgroups > 1) {
            beyond_first.push_back(subgroups - 1);
            missing.push_back(lacking);
            measured += p.ns * ghz / (2 * steps(p));
          } else {
            alone_missing = lacking;
          }
        }
        latency = std::max(1.0, std::round(latency) + alone_missing);
        fit = fit_line(beyond_first, missing, 0);
        // What remains after this pass, against the measured cost per barrier.
        fit.relative_residual = fit.rms_residual / (measured / double(missing.size()));
        sync = std::max(0.0, sync + fit.intercept);
        per_subgroup = std::max(0.0, per_subgroup + fit.slope);
      }
      const CalibratedField first = fitter.take("latency_cycles.barrier");
      fitter.set("latency_cycles.barrier", "latency_cycles", first.base_value, latency, "fitted",
                 "barrier: what the model lacks per barrier at one subgroup, starting from " + first.how, LineFit{},
                 false, 1, true);
      derived["barrier_release_fit"] = fit_json(fit);
      fitter.set("barrier_sync_cycles", "barrier_sync_cycles", base.barrier_sync_cycles, sync, "fitted",
                 "barrier: what the model lacks per barrier at 2-32 subgroups, intercept", fit, false, 0, false);
      fitter.set("barrier_subgroup_cycles", "barrier_subgroup_cycles", base.barrier_subgroup_cycles, per_subgroup,
                 "fitted", "barrier: what the model lacks per barrier at 2-32 subgroups, slope per subgroup", fit,
                 false, 0, false);
    }
  }

  // The slot's turnover, with the timing model in the loop as the barrier's
  // cost above. The measured turnover (a slot-bound empty dispatch's time
  // beyond the intercept, per turn) holds the empty workgroup's own few
  // instructions, and the model runs those too before the slot turns over:
  // it put the H100's empty dispatches of 1024 lanes 6-9% over at 4096 and
  // 16384 workgroups, and every grid of mostly idle workgroups over with
  // them (APSP's phase 2). Each pass predicts those points on the device
  // calibrated so far and takes from the turnover the median of what the
  // predictions have over per turn.
  if (const CalibratedField* measured = fitter.find("workgroup_turnover_ns"); measured && !slot_bound.empty()) {
    const kernels::Workload& micro = *kernels::find_workload("micro");
    double turnover = measured->value;
    std::vector<double> over;  // per point, ns a turn
    for (int pass = 0; pass < 3; ++pass) {
      json provisional = device_file();
      provisional["workgroup_turnover_ns"] = turnover;
      const DeviceModel model = parse_device_model(provisional, name + " (being calibrated)");
      over.clear();
      for (const Point& p : slot_bound) {
        kernels::Params params = {{"bench", "empty"}};
        for (const auto& [key, value] : p.params) params[key] = std::to_string(uint64_t(value));
        const timing::Prediction predicted =
            timing::predict(micro.build(micro.with_defaults(params)), model, timing::TimingOptions{});
        over.push_back((predicted.seconds * 1e9 - p.ns) / turns(p));
      }
      turnover = std::max(0.0, turnover - summarize(over).median);
    }
    LineFit spread;
    spread.points = over.size();
    const CalibratedField first = fitter.take("workgroup_turnover_ns");
    fitter.set("workgroup_turnover_ns", "workgroup_turnover_ns", first.base_value, turnover, "fitted",
               "empty: (time - intercept) / the workgroups each slot takes in turn at the points beyond one wave of "
               "a workgroup size whose every such point lies above the line through the other sizes' (workgroups "
               "of 1024 lanes), less the median of what the timing model has over per turn at those points (three "
               "passes)",
               spread, false, 0.001, false);
  }

  // A uniform buffer's read: empty_uniform_read against empty_uniform_unread
  // (the same buffer bound, the invocation's index tested instead) at each
  // workgroup count, less what the timing model has between the two besides
  // the wait (its read's add and compare), median over the counts.
  if (const Points read = with_bench(all, "empty_uniform_read"), unread = with_bench(all, "empty_uniform_unread");
      !read.empty() && !unread.empty() && base.uniform_buffer_wait_us > 0) {
    const DeviceModel model = parse_device_model(device_file(), name + " (being calibrated)");
    const kernels::Workload& micro = *kernels::find_workload("micro");
    const auto median_ns = [](const Points& points, double workgroups) {
      std::vector<double> ns;
      for (const Point& p : points)
        if (param(p, "workgroups") == workgroups) ns.push_back(p.ns);
      return ns.empty() ? std::nan("") : summarize(ns).median;
    };
    const auto predicted_ns = [&](const std::string& bench, const Point& p) {
      kernels::Params params = {{"bench", bench}};
      for (const auto& [key, value] : p.params) params[key] = std::to_string(uint64_t(value));
      return timing::predict(micro.build(micro.with_defaults(params)), model, timing::TimingOptions{}).seconds * 1e9;
    };
    std::vector<double> beyond;  // ns, per workgroup count
    std::set<double> counts;
    for (const Point& p : read) {
      if (!counts.insert(param(p, "workgroups")).second) continue;
      const double measured = median_ns(read, param(p, "workgroups")) - median_ns(unread, param(p, "workgroups"));
      if (std::isnan(measured)) continue;
      const double modelled =
          predicted_ns("empty_uniform_read", p) - predicted_ns("empty_uniform_unread", p) - model.uniform_buffer_wait_us * 1e3;
      beyond.push_back(measured - modelled);
    }
    if (!beyond.empty())
      set_measured_us("uniform_buffer_wait_us", base.uniform_buffer_wait_us, std::max(0.0, summarize(beyond).median),
                      beyond.size(),
                      "empty_uniform_read: its time less empty_uniform_unread's at the same workgroups, less what "
                      "the timing model has between the two besides the wait, median over the workgroup counts");
  }

  json device = device_file();
  device["calibration"] = {
      {"results_file", results_file},
      {"base_model", base.name},
      {"devices_measured", std::vector<std::string>(devices.begin(), devices.end())},
      {"first_measurement", dates.empty() ? "" : *dates.begin()},
      {"last_measurement", dates.empty() ? "" : *dates.rbegin()},
      {"clock_mhz_assumed", base.clock_mhz},
      {"bounds_rule",
       "latencies >= 1 cycle; a peak the documents state (bandwidth, ALU lanes) is not exceeded and is reached at "
       "least halfway; an estimated field moves at most 16x either way"},
      {"fields", fields},
      {"derived", derived},
  };
  return {fitter.fields, derived, device};
}

}  // namespace lanelab::validate
