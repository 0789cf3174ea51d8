#pragma once
// Predictions against measurements: every prediction record paired with the
// measurement of the same experiment, workload and parameters; the error of
// each pair, and per experiment the mean absolute percentage error, the worst
// pair, and whether the model ranks the variants as the device does
// (Spearman's rank correlation, which variant wins, which pairs it misorders).
//
// The microbenchmarks (workload "micro") are what `lanelab calibrate` fits
// the device model to, so their pairs would only measure the fit: they are
// left out of every figure here and counted instead. The suite (transpose,
// reductions, APSP) is what validates.
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lanelab::validate {

// The workload whose records calibrate the model and never count as validation.
inline constexpr const char* kCalibrationWorkload = "micro";

// One pipeline of a point whose dispatch sequence runs several (APSP's
// phases): the time a dispatch of it takes, measured (each run's median of
// the pipeline's dispatches over its repeats, per dispatch; the median over
// the runs that timed it) and predicted (the timing model's kind of dispatch).
struct PipelineTime {
  std::string pipeline;
  size_t dispatches = 0;                   // of the sequence
  double measured_s = 0, predicted_s = 0;  // a dispatch
};

// One prediction beside its measurement.
struct ComparedPoint {
  std::string experiment, workload;
  std::string x;        // the value of the sweep's x parameter ("" outside sweeps)
  std::string variant;  // the sweep's series parameters, "k=v k=v": what is ranked
  std::string params;   // every parameter but the seed and the empty ones, "k=v k=v"
  std::string label;    // the point within its experiment: "x=v variant" (params outside sweeps)
  // The median over the timed repeats of the whole dispatch sequence. A point
  // measured in several runs (records of one key, e.g. the suite measured on
  // two days) pools the repeats of every run.
  double measured_s = 0;
  // The pooled repeats' quartiles (the median's where the records have none):
  // the device's own spread, within which two variants are not told apart.
  double measured_q1_s = 0, measured_q3_s = 0;
  // Each run's own median, in the order the records came.
  std::vector<double> run_medians_s;
  double predicted_s = 0;  // the prediction's time for the same dispatches
  double error_percent = 0;  // (predicted - measured) / measured, signed
  // Per pipeline, where both sides time a sequence of several (empty
  // otherwise), and the sequence's time beyond its dispatches' own (the
  // gaps between them): measured, the median over those runs; predicted.
  std::vector<PipelineTime> pipelines;
  double measured_between_s = 0, predicted_between_s = 0;
  const nlohmann::json* measurement = nullptr;
  const nlohmann::json* prediction = nullptr;
};

// A pair of variants the model orders otherwise than the device.
struct MisorderedPair {
  std::string faster, slower;  // on the device: the shorter measured time first
  // Time of the slower over the faster, measured (> 1) and predicted (<= 1).
  double measured_ratio = 0, predicted_ratio = 0;
  bool apart = false;          // beyond the device's spread (VariantRanking::misordered_apart)
  bool runs_disagree = false;  // the runs order the pair both ways
};

// The variants at one value of the x parameter, ranked by time.
struct VariantRanking {
  std::string x;
  size_t variants = 0;
  size_t pairs = 0;  // pairs of variants
  // Pairs measured in several runs whose runs order them both ways: the
  // device itself does not settle their order.
  size_t runs_disagree = 0;
  // The pairs the model orders otherwise than the device (or does not
  // order: one predicted time for both).
  std::vector<MisorderedPair> misordered_pairs;
  size_t misordered() const { return misordered_pairs.size(); }
  // Of these, the ones whose measured quartile ranges do not overlap, so
  // that the device separates them beyond its repeat-to-repeat (and
  // run-to-run) spread.
  size_t misordered_apart() const {
    return size_t(std::count_if(misordered_pairs.begin(), misordered_pairs.end(),
                                [](const MisorderedPair& pair) { return pair.apart; }));
  }
  double spearman = 0;  // NaN with fewer than two variants or a constant side
  std::string measured_winner, predicted_winner;  // the fastest variant
  bool winner_agrees = false;  // the predicted winner is (or ties) the measured one
};

// Where one variant's throughput curve saturates: the x at which the rate
// (work / time) first reaches kSaturationFraction of the variant's best, on
// each side, interpolated between the sweep's points (comparison.cpp). On a
// loading sweep (payload on x) that is how much work the device needs before
// all its lanes are busy. The model gets it when the two are within
// kSaturationFactor of each other (the transpose document's own estimates
// were within 2).
inline constexpr double kSaturationFraction = 0.9;
inline constexpr double kSaturationFactor = 1.5;
struct Saturation {
  std::string variant;
  double measured_x = 0, predicted_x = 0;
  double ratio = 0;  // predicted_x / measured_x
  bool within_factor() const { return ratio <= kSaturationFactor && ratio >= 1 / kSaturationFactor; }
};

// One variant's error over the x values it was measured at: where the model
// puts a variant systematically fast or slow against the others, the pairs
// the device separates by less than that difference come out misordered.
struct VariantBias {
  std::string variant;
  size_t points = 0;
  double mean_error_percent = 0, lowest_error_percent = 0, highest_error_percent = 0;
};

// The experiment's rankings were the model's time a dispatch of some
// pipelines the measured one, the rest of each prediction kept: the pairs it
// would still misorder, and its error. Which pipeline's error the misordered
// pairs come from, and whether the time between dispatches decides them.
inline constexpr const char* kBetweenDispatches = "the time between dispatches";
struct PipelineSubstitution {
  // The pipelines taken as measured, or kBetweenDispatches (none: the model as it is).
  std::vector<std::string> replaced;
  // The share of each replaced pipeline's error a dispatch that is kept: 0
  // takes it as measured; 0.5 puts the prediction halfway to the measurement.
  double error_kept = 0;
  std::string variant;  // only this variant's points ("": every point)
  size_t misordered = 0, misordered_apart = 0;
  double mape_percent = 0;
};

inline constexpr double kErrorShares[] = {0.75, 0.5, 0.25, 0.1};

struct ExperimentComparison {
  std::string experiment;
  std::string x_param;                // what the variants are ranked at ("" when all together)
  std::vector<ComparedPoint> points;  // in the measurements' order
  double mape_percent = 0;            // mean of |error|
  size_t worst = 0;                   // index into points of the largest |error|
  // Spearman's rho of all points' throughput (work / time), predicted
  // against measured: does the model order the configurations as the device?
  double spearman = 0;
  std::vector<VariantRanking> rankings;  // one per x value, in x order
  size_t winners_agree = 0;              // rankings whose winners are the same variant
  // Per variant, where x is numeric and the variant has at least
  // kSaturationMinPoints values of it.
  std::vector<Saturation> saturations;
  // Per variant (every one, x numeric or not), by mean error, lowest first.
  std::vector<VariantBias> biases;
  // Where every point has the same pipelines (two or more): none replaced,
  // each alone, all of them, then the time between dispatches alone.
  std::vector<PipelineSubstitution> substitutions;
  // Then each pipeline of one variant at a time (its points at every x).
  std::vector<PipelineSubstitution> variant_substitutions;
  // Every pipeline's error a dispatch cut to each of kErrorShares, the time
  // between dispatches kept: how near the measurement the model's phases
  // have to come before the rankings agree.
  std::vector<PipelineSubstitution> error_scalings;
};
inline constexpr size_t kSaturationMinPoints = 4;

struct Comparison {
  std::vector<ExperimentComparison> experiments;  // the sweeps' order, then others by name
  size_t predictions = 0, measurements = 0;       // records read (calibration ones included)
  size_t calibration_pairs = 0;     // pairs of workload "micro", left out of the figures
  size_t unpaired_predictions = 0;  // predictions without a measurement (or with an errored one)
  size_t unpaired_measurements = 0;
  size_t points_with_runs = 0;  // compared points measured in more than one run
  size_t most_runs = 0;         // the most runs of any compared point
  double mape_percent = 0;  // over every compared point of every experiment
};

// Pairs and compares. Measurements of the same key are runs of one point and
// are pooled (ComparedPoint::measured_s); a later prediction of the same key
// replaces an earlier one. Measurements whose correctness status is "error"
// have no time.
Comparison compare(const std::vector<nlohmann::json>& records);

// The measured seconds of a measurement record (median of its timed repeats
// of the whole sequence), or a negative number when it has none.
double measured_seconds(const nlohmann::json& measurement);

// Ranks 1..n of the values, ties sharing the mean of the ranks they span.
std::vector<double> ranks(const std::vector<double>& values);
// Spearman's rank correlation: Pearson's correlation of the ranks (so ties
// are handled); NaN for fewer than two values or when a side is constant.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace lanelab::validate
