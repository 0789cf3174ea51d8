#include "validate/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

#include "sim/common/text.h"
#include "validate/results_log.h"
#include "validate/sweeps.h"
#include "validate/timing_stats.h"

namespace lanelab::validate {

namespace {

using Json = nlohmann::json;



// The x parameter a sweep ranks its variants at; "" when the x parameter is
// itself the series (the luminance variants: all points ranked together).
std::string ranking_param(const Sweep& sweep, const std::vector<std::string>& series) {
  return std::find(series.begin(), series.end(), sweep.x_param) == series.end() ? sweep.x_param : "";
}

std::string pair_key(const Json& record) {
  return record.value("experiment", "") + "|" + record.value("workload", "") + "|" + record_params_text(record, true);
}


// Where a point sits in its experiment: the x value its variants are ranked
// at, and the variant. A sweep whose x parameter is itself the series (the
// luminance variants) ranks all its points together.
void place(const Json& record, ComparedPoint& point) {
  const Sweep* sweep = find_sweep(point.experiment);
  if (!sweep) {
    point.variant = point.label = point.params;
    return;
  }
  const std::vector<std::string> series = split_nonempty(sweep->series, ',');
  const std::string x_param = ranking_param(*sweep, series);
  for (const auto& name : series) {
    if (!point.variant.empty()) point.variant += ' ';
    point.variant += name + "=" + record_param(record, name);
  }
  point.label = point.variant;
  if (!x_param.empty()) {
    point.x = record_param(record, x_param);
    point.label = x_param + "=" + point.x + " " + point.variant;
  }
}

double number_value(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0' ? v : std::numeric_limits<double>::quiet_NaN();
}

bool x_less(const std::string& a, const std::string& b) {
  const double x = number_value(a), y = number_value(b);
  if (!std::isnan(x) && !std::isnan(y)) return x < y;
  return a < b;
}

// Work per second; points of one experiment with different payloads compare
// by rate, not by time. Without a work measure, 1 / time.
double rate(const ComparedPoint& p, double seconds) {
  double units = 1;
  if (p.measurement->contains("work")) units = (*p.measurement)["work"].value("units", 1.0);
  return units / seconds;
}

// Variants at one x solve the same problem, so the faster is the one that
// takes less time, whatever work each counts: APSP pads n up to a multiple
// of its block factor and counts the padding's relaxations, and a rate
// would credit a variant for the padding it adds.
double speed(double seconds) { return 1 / seconds; }

// Whether the runs of two points, the k-th run of one against the k-th of
// the other (the records' order: one run of a sweep after another), put
// the pair in both orders.
bool runs_order_both_ways(const ComparedPoint& a, const ComparedPoint& b) {
  bool faster = false, slower = false;
  for (size_t k = 0; k < std::min(a.run_medians_s.size(), b.run_medians_s.size()); ++k) {
    faster |= a.run_medians_s[k] < b.run_medians_s[k];
    slower |= a.run_medians_s[k] > b.run_medians_s[k];
  }
  return faster && slower;
}

// The variants at each x ranked by the predicted times given (one a point),
// against the measured ones.
std::vector<VariantRanking> rank_variants(const std::vector<ComparedPoint>& points,
                                          const std::vector<double>& predicted_s) {
  std::vector<double> measured, predicted;
  for (size_t i = 0; i < points.size(); ++i) {
    measured.push_back(speed(points[i].measured_s));
    predicted.push_back(speed(predicted_s[i]));
  }
  std::map<std::string, std::vector<size_t>> by_x;
  for (size_t i = 0; i < points.size(); ++i) by_x[points[i].x].push_back(i);
  std::vector<std::string> xs;
  for (const auto& [x, members] : by_x) xs.push_back(x);
  std::stable_sort(xs.begin(), xs.end(), x_less);
  std::vector<VariantRanking> rankings;
  for (const auto& x : xs) {
    const std::vector<size_t>& members = by_x[x];
    if (members.size() < 2) continue;
    VariantRanking r;
    r.x = x;
    r.variants = members.size();
    std::vector<double> m, p;
    size_t best_m = members[0], best_p = members[0];
    for (size_t i : members) {
      m.push_back(measured[i]);
      p.push_back(predicted[i]);
      if (measured[i] > measured[best_m]) best_m = i;
      if (predicted[i] > predicted[best_p]) best_p = i;
    }
    r.spearman = spearman(m, p);
    for (size_t a = 0; a < members.size(); ++a)
      for (size_t b = a + 1; b < members.size(); ++b) {
        const size_t i = members[a], j = members[b];
        ++r.pairs;
        const bool disagree = runs_order_both_ways(points[i], points[j]);
        if (disagree) ++r.runs_disagree;
        if (measured[i] == measured[j] || (measured[i] - measured[j]) * (predicted[i] - predicted[j]) > 0) continue;
        // Apart where one side's slow quartile of repeats is faster than the
        // other's fast quartile.
        const ComparedPoint &pi = points[i], &pj = points[j];
        const bool apart = pi.measured_q3_s < pj.measured_q1_s || pj.measured_q3_s < pi.measured_q1_s;
        const size_t fast = measured[i] > measured[j] ? i : j, slow = fast == i ? j : i;
        r.misordered_pairs.push_back({points[fast].variant, points[slow].variant, measured[fast] / measured[slow],
                                      predicted[fast] / predicted[slow], apart, disagree});
      }
    r.measured_winner = points[best_m].variant;
    r.predicted_winner = points[best_p].variant;
    // Where the device puts two variants level at the top, either wins.
    r.winner_agrees = measured[best_p] == measured[best_m];
    rankings.push_back(r);
  }
  return rankings;
}

// The experiment ranked again with the predicted time a dispatch of each
// pipeline in `replaced` taken as measured (and the time between dispatches,
// where it names kBetweenDispatches), at the points of `variant` ("": all);
// with `error_kept` of their error kept where it is not 0.
PipelineSubstitution substitute(const std::vector<ComparedPoint>& points, const std::vector<std::string>& replaced,
                                const std::string& variant = "", double error_kept = 0) {
  PipelineSubstitution s;
  s.replaced = replaced;
  s.variant = variant;
  s.error_kept = error_kept;
  const double removed = 1 - error_kept;
  const auto taken = [&](const std::string& name) {
    return std::find(replaced.begin(), replaced.end(), name) != replaced.end();
  };
  std::vector<double> predicted_s;
  for (const ComparedPoint& p : points) {
    double t = p.predicted_s;
    if (variant.empty() || p.variant == variant) {
      if (taken(kBetweenDispatches)) t -= removed * (p.predicted_between_s - p.measured_between_s);
      for (const PipelineTime& pipeline : p.pipelines)
        if (taken(pipeline.pipeline))
          t -= removed * double(pipeline.dispatches) * (pipeline.predicted_s - pipeline.measured_s);
    }
    predicted_s.push_back(t);
    s.mape_percent += std::abs(t - p.measured_s) / p.measured_s * 100;
  }
  s.mape_percent /= double(points.size());
  for (const VariantRanking& r : rank_variants(points, predicted_s)) {
    s.misordered += r.misordered();
    s.misordered_apart += r.misordered_apart();
  }
  return s;
}

// The pipelines every point has, in the first point's order; none unless
// there are two or more.
std::vector<std::string> shared_pipelines(const std::vector<ComparedPoint>& points) {
  std::vector<std::string> names;
  for (const PipelineTime& p : points.front().pipelines) names.push_back(p.pipeline);
  for (const ComparedPoint& point : points) {
    std::vector<std::string> own;
    for (const PipelineTime& p : point.pipelines) own.push_back(p.pipeline);
    if (own != names) return {};
  }
  return names.size() >= 2 ? names : std::vector<std::string>{};
}

ExperimentComparison compare_experiment(const std::string& name, std::vector<ComparedPoint> points) {
  ExperimentComparison e;
  e.experiment = name;
  if (const Sweep* sweep = find_sweep(name)) e.x_param = ranking_param(*sweep, split_nonempty(sweep->series, ','));
  e.points = std::move(points);
  std::vector<double> measured, predicted, predicted_s;
  for (size_t i = 0; i < e.points.size(); ++i) {
    const ComparedPoint& p = e.points[i];
    e.mape_percent += std::abs(p.error_percent);
    if (std::abs(p.error_percent) > std::abs(e.points[e.worst].error_percent)) e.worst = i;
    measured.push_back(rate(p, p.measured_s));
    predicted.push_back(rate(p, p.predicted_s));
    predicted_s.push_back(p.predicted_s);
  }
  e.mape_percent /= double(e.points.size());
  e.spearman = spearman(measured, predicted);
  e.rankings = rank_variants(e.points, predicted_s);
  for (const VariantRanking& r : e.rankings) e.winners_agree += r.winner_agrees;

  if (const std::vector<std::string> names = shared_pipelines(e.points); !names.empty()) {
    e.substitutions.push_back(substitute(e.points, {}));
    for (const std::string& pipeline : names) e.substitutions.push_back(substitute(e.points, {pipeline}));
    e.substitutions.push_back(substitute(e.points, names));
    e.substitutions.push_back(substitute(e.points, {kBetweenDispatches}));
    std::vector<std::string> variants;
    for (const ComparedPoint& p : e.points)
      if (std::find(variants.begin(), variants.end(), p.variant) == variants.end()) variants.push_back(p.variant);
    for (const std::string& variant : variants)
      for (const std::string& pipeline : names)
        e.variant_substitutions.push_back(substitute(e.points, {pipeline}, variant));
    for (const double share : kErrorShares) e.error_scalings.push_back(substitute(e.points, names, "", share));
  }

  std::map<std::string, std::vector<size_t>> by_variant;
  for (size_t i = 0; i < e.points.size(); ++i) by_variant[e.points[i].variant].push_back(i);
  for (const auto& [variant, members] : by_variant) {
    VariantBias b;
    b.variant = variant;
    b.points = members.size();
    b.lowest_error_percent = b.highest_error_percent = e.points[members.front()].error_percent;
    for (size_t i : members) {
      const double error = e.points[i].error_percent;
      b.mean_error_percent += error / double(members.size());
      b.lowest_error_percent = std::min(b.lowest_error_percent, error);
      b.highest_error_percent = std::max(b.highest_error_percent, error);
    }
    e.biases.push_back(b);
  }
  std::sort(e.biases.begin(), e.biases.end(),
            [](const VariantBias& a, const VariantBias& b) { return a.mean_error_percent < b.mean_error_percent; });
  for (auto& [variant, members] : by_variant) {
    const bool numeric = std::all_of(members.begin(), members.end(),
                                     [&](size_t i) { return !std::isnan(number_value(e.points[i].x)); });
    if (!numeric || members.size() < kSaturationMinPoints) continue;
    std::sort(members.begin(), members.end(),
              [&](size_t a, size_t b) { return number_value(e.points[a].x) < number_value(e.points[b].x); });
    // The sweep samples x at steps (2x on the loading sweeps) coarser than the
    // 1.5x the comparison asks for, so the crossing is interpolated between the
    // last point below the level and the first at or above it, linearly in the
    // rate and in log x (the sweeps' x grows geometrically).
    auto saturation_x = [&](const std::vector<double>& rates) {
      double best = 0;
      for (size_t i : members) best = std::max(best, rates[i]);
      const double level = kSaturationFraction * best;
      for (size_t k = 0; k < members.size(); ++k) {
        const size_t i = members[k];
        const double x1 = number_value(e.points[i].x);
        if (rates[i] < level) continue;
        if (k == 0) return x1;
        const size_t below = members[k - 1];
        const double x0 = number_value(e.points[below].x);
        if (x0 <= 0 || x1 <= 0) return x1;
        const double t = (level - rates[below]) / (rates[i] - rates[below]);
        return std::exp(std::log(x0) + t * (std::log(x1) - std::log(x0)));
      }
      return number_value(e.points[members.back()].x);
    };
    Saturation s;
    s.variant = variant;
    s.measured_x = saturation_x(measured);
    s.predicted_x = saturation_x(predicted);
    s.ratio = s.predicted_x / s.measured_x;
    e.saturations.push_back(s);
  }
  return e;
}

}  // namespace

double measured_seconds(const Json& measurement) {
  if (!measurement.contains("timing") || !measurement["timing"].contains("stats")) return -1;
  return measurement["timing"]["stats"].value("median", -1e9) * 1e-9;
}

std::vector<double> ranks(const std::vector<double>& values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> result(values.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
    const double shared = double(i + j) / 2 + 1;  // the mean of ranks i+1 .. j+1
    for (size_t k = i; k <= j; ++k) result[order[k]] = shared;
    i = j + 1;
  }
  return result;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (a.size() != b.size() || a.size() < 2) return nan;
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  const double mean = double(a.size() + 1) / 2;  // the mean of ranks, ties or not
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sab += (ra[i] - mean) * (rb[i] - mean);
    saa += (ra[i] - mean) * (ra[i] - mean);
    sbb += (rb[i] - mean) * (rb[i] - mean);
  }
  if (saa == 0 || sbb == 0) return nan;
  return sab / std::sqrt(saa * sbb);
}

namespace {

// The timed repeats of a measurement record, in ns: its total_ns, or its
// median alone where the record keeps no repeats.
std::vector<double> repeats_ns(const Json& measurement) {
  const Json& timing = measurement["timing"];
  if (timing.contains("total_ns") && !timing["total_ns"].empty()) return timing["total_ns"].get<std::vector<double>>();
  return {measured_seconds(measurement) * 1e9};
}

// The measured side of a point from its runs: one run's own statistics, or
// the statistics of every run's repeats pooled.
void set_measured(const std::vector<const Json*>& runs, ComparedPoint& point) {
  for (const Json* run : runs) point.run_medians_s.push_back(measured_seconds(*run));
  if (runs.size() == 1) {
    const Json& stats = (*runs[0])["timing"]["stats"];
    point.measured_s = point.run_medians_s[0];
    point.measured_q1_s = stats.contains("q1") ? stats["q1"].get<double>() * 1e-9 : point.measured_s;
    point.measured_q3_s = stats.contains("q3") ? stats["q3"].get<double>() * 1e-9 : point.measured_s;
    return;
  }
  std::vector<double> pooled;
  for (const Json* run : runs) {
    const std::vector<double> each = repeats_ns(*run);
    pooled.insert(pooled.end(), each.begin(), each.end());
  }
  const SampleStats stats = summarize(pooled);
  point.measured_s = stats.median * 1e-9;
  point.measured_q1_s = stats.q1 * 1e-9;
  point.measured_q3_s = stats.q3 * 1e-9;
}

// The point's time per pipeline, where its prediction has its kinds of
// dispatch and runs timed each of them: each run's median of the pipeline's
// dispatches, per dispatch, and the median over those runs. Left empty where
// the two sides do not count the same dispatches.
void set_pipelines(const std::vector<const Json*>& runs, const Json& prediction, ComparedPoint& point) {
  if (!prediction.contains("dispatches")) return;
  std::vector<const Json*> timed;
  for (const Json* run : runs)
    if ((*run)["timing"].contains("per_pipeline")) timed.push_back(run);
  if (timed.empty()) return;
  std::vector<PipelineTime> pipelines;
  double predicted_spans = 0;
  for (const Json& kind : prediction["dispatches"]) {
    PipelineTime t;
    t.pipeline = kind.value("pipeline", "");
    t.dispatches = kind.value("count", size_t(0));
    t.predicted_s = kind.value("seconds_per_dispatch", 0.0);
    std::vector<double> each;
    for (const Json* run : timed) {
      const Json& per_pipeline = (*run)["timing"]["per_pipeline"];
      if (!per_pipeline.contains(t.pipeline) || per_pipeline[t.pipeline].value("dispatches", size_t(0)) != t.dispatches)
        return;
      each.push_back(per_pipeline[t.pipeline].value("median", 0.0) * 1e-9 / double(t.dispatches));
    }
    t.measured_s = summarize(each).median;
    predicted_spans += double(t.dispatches) * t.predicted_s;
    pipelines.push_back(t);
  }
  std::vector<double> between;
  for (const Json* run : timed) {
    double spans = 0;
    for (const auto& [name, stats] : (*run)["timing"]["per_pipeline"].items()) spans += stats.value("median", 0.0) * 1e-9;
    between.push_back(measured_seconds(*run) - spans);
  }
  point.pipelines = std::move(pipelines);
  point.measured_between_s = summarize(between).median;
  point.predicted_between_s = point.predicted_s - predicted_spans;
}

}  // namespace

Comparison compare(const std::vector<Json>& records) {
  Comparison c;
  std::map<std::string, const Json*> predictions;
  std::vector<std::string> measured_order;
  std::map<std::string, std::vector<const Json*>> measurements;  // the runs of each key
  for (const Json& r : records) {
    const std::string source = r.value("source", "measurement");
    const std::string key = pair_key(r);
    if (source == "prediction") {
      ++c.predictions;
      predictions[key] = &r;
    } else if (source == "measurement") {
      ++c.measurements;
      if (!measurements.count(key)) measured_order.push_back(key);
      std::vector<const Json*>& runs = measurements[key];
      if (measured_seconds(r) > 0) runs.push_back(&r);
    }
  }

  std::map<std::string, std::vector<ComparedPoint>> by_experiment;
  size_t paired = 0;
  for (const auto& key : measured_order) {
    const std::vector<const Json*>& runs = measurements[key];
    const auto found = predictions.find(key);
    if (found == predictions.end() || runs.empty() || !found->second->contains("time_s")) continue;
    ++paired;
    const Json& m = *runs.front();
    const Json& p = *found->second;
    if (m.value("workload", "") == kCalibrationWorkload) {
      ++c.calibration_pairs;
      continue;
    }
    ComparedPoint point;
    point.experiment = m.value("experiment", "single");
    point.workload = m.value("workload", "");
    point.params = record_params_text(m, false);
    set_measured(runs, point);
    if (runs.size() > 1) ++c.points_with_runs;
    c.most_runs = std::max(c.most_runs, runs.size());
    point.predicted_s = p["time_s"].get<double>();
    point.error_percent = (point.predicted_s - point.measured_s) / point.measured_s * 100;
    point.measurement = &m;
    point.prediction = &p;
    set_pipelines(runs, p, point);
    place(m, point);
    by_experiment[point.experiment].push_back(point);
  }
  c.unpaired_measurements = measurements.size() - paired;
  c.unpaired_predictions = predictions.size() - paired;

  std::vector<std::string> order;
  for (const auto& s : all_sweeps())
    if (by_experiment.count(s.name)) order.push_back(s.name);
  for (const auto& [name, points] : by_experiment)
    if (!find_sweep(name)) order.push_back(name);
  size_t count = 0;
  for (const auto& name : order) {
    c.experiments.push_back(compare_experiment(name, std::move(by_experiment[name])));
    for (const auto& p : c.experiments.back().points) c.mape_percent += std::abs(p.error_percent);
    count += c.experiments.back().points.size();
  }
  if (count) c.mape_percent /= double(count);
  return c;
}

}  // namespace lanelab::validate
