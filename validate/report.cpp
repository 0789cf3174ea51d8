#include "validate/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/common/error.h"
#include "validate/comparison.h"
#include "sim/common/text.h"
#include "validate/results_log.h"
#include "validate/sweeps.h"
#include "validate/timing_stats.h"

namespace lanelab::validate {

namespace fs = std::filesystem;

namespace {

using Json = nlohmann::json;


std::string device_name(const Json& record) {
  return record.contains("device") ? record["device"].value("name", "?") : "?";
}

std::string status_of(const Json& record) {
  if (!record.contains("correctness")) return "unchecked";
  return record["correctness"].value("status", "error");
}

bool simulator_differs(const Json& record) {
  return record.contains("simulator") && (!record["simulator"].value("matches", true) ||
                                          !record["simulator"].contains("check") ||
                                          !record["simulator"]["check"].value("passed", false));
}

bool is_failure(const Json& record) {
  const std::string s = status_of(record);
  return s == "failed" || s == "error" || simulator_differs(record);
}

bool has_throughput(const Json& record) {
  return record.contains("throughput") && record["throughput"].contains("value");
}


std::string number(double value, int digits = 4) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

// The parameters of an experiment that take more than one value: the table's columns.
std::vector<std::string> varying_params(const std::vector<const Json*>& records) {
  std::map<std::string, std::set<std::string>> values;
  for (const Json* r : records)
    if (r->contains("params"))
      for (const auto& [name, value] : (*r)["params"].items()) values[name].insert(record_param(*r, name));
  std::vector<std::string> names;
  for (const auto& [name, set] : values)
    if (set.size() > 1 && name != "seed") names.push_back(name);
  return names;
}


bool numeric(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return *end == '\0';
}

std::string gnuplot_quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// One curve: points in x order.
struct Series {
  std::string title;
  bool prediction = false;
  int color = 0;  // gnuplot line colour: a variant's prediction shares its measurement's
  std::vector<std::pair<std::string, double>> points;  // x (text), throughput
};

// Runs gnuplot on `script` in `work_dir`; returns the SVG it wrote, without
// its XML prologue so that it can sit inside HTML.
std::string run_gnuplot(const ReportOptions& options, const fs::path& work_dir, const std::string& script,
                        const std::string& name) {
  const fs::path script_path = work_dir / (name + ".gp");
  const fs::path svg_path = work_dir / (name + ".svg");
  {
    std::ofstream out(script_path);
    out << "set terminal svg size 900,480 dynamic enhanced font 'sans,12' background rgb 'white'\n";
    out << "set output " << gnuplot_quote(svg_path.string()) << "\n" << script;
  }
  const std::string command = options.gnuplot + " " + script_path.string() + " 2>" + (work_dir / (name + ".log")).string();
  if (std::system(command.c_str()) != 0) {
    std::ifstream log(work_dir / (name + ".log"));
    std::stringstream text;
    text << log.rdbuf();
    throw Error("gnuplot failed drawing " + name + " (is gnuplot installed?): " + text.str());
  }
  std::ifstream in(svg_path);
  std::stringstream svg;
  svg << in.rdbuf();
  std::string text = svg.str();
  const auto start = text.find("<svg");
  if (start == std::string::npos) throw Error("gnuplot wrote no SVG for " + name);
  return text.substr(start);
}

std::string plot(const ReportOptions& options, const fs::path& work_dir, const std::string& name,
                 const std::string& title, const std::string& x_label, const std::string& y_label,
                 const std::vector<Series>& series) {
  bool categorical = false;
  std::vector<std::string> categories;
  double x_min = 1e300, x_max = -1e300;
  for (const auto& s : series)
    for (const auto& [x, y] : s.points) {
      if (!numeric(x)) categorical = true;
      if (std::find(categories.begin(), categories.end(), x) == categories.end()) categories.push_back(x);
    }
  if (!categorical)
    for (const auto& x : categories) {
      x_min = std::min(x_min, std::stod(x));
      x_max = std::max(x_max, std::stod(x));
    }
  std::ostringstream gp;
  gp << "set title " << gnuplot_quote(title) << " noenhanced\n";
  gp << "set xlabel " << gnuplot_quote(x_label) << " noenhanced\nset ylabel " << gnuplot_quote(y_label) << " noenhanced\n";
  gp << "set grid\nset key outside right top noenhanced\nset yrange [0:*]\n";
  if (!categorical && x_min > 0 && x_max / x_min >= 16) gp << "set logscale x 2\nset format x '2^{%L}'\n";
  if (categorical) {
    gp << "set xtics rotate by -30 noenhanced\nset xrange [-0.5:" << categories.size() - 0.5 << "]\n";
    gp << "set xtics (";
    for (size_t i = 0; i < categories.size(); ++i) gp << (i ? ", " : "") << gnuplot_quote(categories[i]) << " " << i;
    gp << ")\n";
  }
  gp << "plot ";
  for (size_t i = 0; i < series.size(); ++i) {
    const fs::path data = work_dir / (name + "_" + std::to_string(i) + ".dat");
    std::ofstream out(data);
    for (const auto& [x, y] : series[i].points) {
      const size_t at = size_t(std::find(categories.begin(), categories.end(), x) - categories.begin());
      out << (categorical ? std::to_string(at) : x) << " " << number(y, 9) << "\n";
    }
    gp << (i ? ", " : "") << gnuplot_quote(data.string()) << " using 1:2 with linespoints"
       << (series[i].prediction ? " dashtype 2" : "") << " linecolor " << series[i].color % 8 + 1 << " title "
       << gnuplot_quote(series[i].title);
  }
  gp << "\n";
  return run_gnuplot(options, work_dir, gp.str(), name);
}

// Every pair an experiment's rankings misorder: which variant the device
// runs faster and by how much, what the model says, and whether the device's
// spread or its runs leave the order open.
void misordered_pairs_table(std::ostream& html, const ExperimentComparison& e) {
  bool any = false;
  for (const auto& r : e.rankings) any = any || !r.misordered_pairs.empty();
  if (!any) return;
  html << "<table><thead><tr><th>" << html_escape(e.x_param.empty() ? "ranked" : e.x_param)
       << "</th><th>faster on the device</th><th>slower on the device</th><th>measured: time of the slower over "
          "the faster</th><th>predicted</th><th>beyond the spread</th><th>the runs order it both ways</th></tr>"
          "</thead><tbody>\n";
  for (const auto& r : e.rankings)
    for (const auto& pair : r.misordered_pairs)
      html << "<tr" << (pair.apart ? " class=\"fail\"" : "") << "><td>" << html_escape(r.x.empty() ? "(all)" : r.x)
           << "</td><td>" << html_escape(pair.faster) << "</td><td>" << html_escape(pair.slower) << "</td><td>"
           << number(pair.measured_ratio, 4) << "</td><td>" << number(pair.predicted_ratio, 4) << "</td><td>"
           << (pair.apart ? "yes" : "no") << "</td><td>" << (pair.runs_disagree ? "yes" : "no") << "</td></tr>\n";
  html << "</tbody></table>\n";
}

double x_order(const std::string& x) { return numeric(x) ? std::stod(x) : 0; }

// A curve whose x values repeat (a point measured in several runs) drawn
// through each x's median throughput, the x values in their first order.
Series one_point_per_x(const Series& curve) {
  std::vector<std::string> xs;
  std::map<std::string, std::vector<double>> values;
  for (const auto& [x, y] : curve.points) {
    if (!values.count(x)) xs.push_back(x);
    values[x].push_back(y);
  }
  Series merged = curve;
  merged.points.clear();
  for (const auto& x : xs) merged.points.emplace_back(x, summarize(values[x]).median);
  return merged;
}

// One section: the plot of an experiment's throughput against its x
// parameter, one curve per series key (and device, and source), then its table.
std::string experiment_section(const ReportOptions& options, const fs::path& work_dir, const std::string& id,
                               const std::string& heading, const std::string& x_param,
                               const std::vector<std::string>& series_params, const std::vector<const Json*>& records) {
  // Devices of the measurements: a prediction names a device model
  // ("h100"), not the device's name, and says "(predicted)" instead.
  std::set<std::string> devices;
  for (const Json* r : records)
    if (r->value("source", "measurement") == "measurement") devices.insert(device_name(*r));
  std::map<std::string, Series> curves;
  std::map<std::string, int> colors;  // by variant, so that prediction and measurement match
  std::string unit;
  for (const Json* r : records) {
    if (!has_throughput(*r) || status_of(*r) == "error") continue;
    unit = (*r)["throughput"].value("unit", "");
    std::string key;
    for (const auto& p : series_params) {
      if (!key.empty()) key += ' ';
      key += record_param(*r, p);
    }
    if (series_params.size() == 1 && series_params[0] == x_param) key.clear();
    const bool prediction = r->value("source", "measurement") == "prediction";
    const int color = colors.emplace(key, int(colors.size())).first->second;
    if (devices.size() > 1 || key.empty()) key += (key.empty() ? "" : " on ") + device_name(*r);
    if (prediction) key += " (predicted)";
    Series& s = curves[key];
    s.title = key;
    s.prediction = prediction;
    s.color = color;
    s.points.emplace_back(record_param(*r, x_param), (*r)["throughput"]["value"].get<double>());
  }
  std::ostringstream html;
  html << "<section id=\"" << html_escape(id) << "\"><h2>" << html_escape(heading) << "</h2>\n";
  if (!curves.empty()) {
    std::vector<Series> list;
    for (auto& [key, s] : curves) {
      std::stable_sort(s.points.begin(), s.points.end(),
                       [](const auto& a, const auto& b) { return x_order(a.first) < x_order(b.first); });
      list.push_back(one_point_per_x(s));
    }
    html << "<figure>" << plot(options, work_dir, id, heading, x_param, unit, list) << "</figure>\n";
  }
  const std::vector<std::string> columns = varying_params(records);
  html << "<table><thead><tr><th>source</th><th>device</th>";
  for (const auto& c : columns) html << "<th>" << html_escape(c) << "</th>";
  html << "<th>throughput</th><th>time (median)</th><th>IQR</th><th>min</th><th>launch overhead</th><th>registers</th>"
          "<th>correctness</th><th>simulator</th></tr></thead><tbody>\n";
  for (const Json* r : records) {
    const bool bad = is_failure(*r);
    html << "<tr" << (bad ? " class=\"fail\"" : "") << "><td>" << html_escape(r->value("source", "measurement"))
         << "</td><td>" << html_escape(device_name(*r)) << "</td>";
    for (const auto& c : columns) html << "<td>" << html_escape(record_param(*r, c)) << "</td>";
    if (has_throughput(*r))
      html << "<td>" << number((*r)["throughput"]["value"].get<double>()) << " "
           << html_escape((*r)["throughput"].value("unit", "")) << "</td>";
    else
      html << "<td></td>";
    if (r->contains("time_s")) {
      html << "<td>" << number((*r)["time_s"].get<double>() * 1e6) << " us</td><td></td><td></td>";
    } else if (r->contains("timing") && (*r)["timing"].contains("stats")) {
      const Json& s = (*r)["timing"]["stats"];
      html << "<td>" << number(s.value("median", 0.0) / 1000) << " us</td><td>" << number(s.value("iqr", 0.0) / 1000)
           << " us</td><td>" << number(s.value("min", 0.0) / 1000) << " us</td>";
    } else {
      html << "<td></td><td></td><td></td>";
    }
    html << "<td>" << (r->contains("launch_overhead_ns") ? number((*r)["launch_overhead_ns"].get<double>() / 1000) + " us" : "")
         << "</td><td>";
    if (r->contains("kernel_statistics"))
      for (const auto& [pipeline, stats] : (*r)["kernel_statistics"].items())
        if (stats.contains("Register Count"))
          html << html_escape(pipeline) << ": " << stats["Register Count"].get<uint64_t>() << " ";
    html << "</td><td title=\""
         << html_escape(r->contains("correctness") ? (*r)["correctness"].value("message", "") : "") << "\">"
         << html_escape(status_of(*r)) << "</td><td>";
    if (r->contains("simulator"))
      html << html_escape(simulator_differs(*r) ? "differs: " + (*r)["simulator"].value("message", "")
                                                : (*r)["simulator"].value("message", ""));
    html << "</td></tr>\n";
  }
  html << "</tbody></table></section>\n";
  return html.str();
}

std::string percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", value);
  return text;
}

std::string mape(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", value);
  return text;
}

// A share of 1 as a whole percentage: 0.25 -> "25%".
std::string percent_share(double share) {
  std::ostringstream text;
  text << std::lround(share * 100) << '%';
  return text.str();
}

// ", and 5, 3, 1, 1 with every pipeline's error a dispatch cut to 75%, 50%,
// 25%, 10% of itself": the pairs misordered beyond the spread at each of the
// experiment's error scalings ("" where it has none).
std::string error_scalings_text(const ExperimentComparison& e) {
  if (e.error_scalings.empty()) return "";
  std::ostringstream shares, pairs;
  for (const PipelineSubstitution& s : e.error_scalings) {
    const char* comma = &s == &e.error_scalings.front() ? "" : ", ";
    shares << comma << percent_share(s.error_kept);
    pairs << comma << s.misordered_apart;
  }
  return ", and " + pairs.str() + " with every pipeline's error a dispatch cut to " + shares.str() + " of itself";
}

std::string rho(double value) {
  if (std::isnan(value)) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

std::string micro_seconds(double seconds) { return number(seconds * 1e6) + " us"; }

// What bounds the prediction: the compute units' cycles or DRAM bandwidth
// (the timing model takes the larger of the two per dispatch).
std::string bound_of(const Json& prediction) {
  if (!prediction.contains("compute_s") || !prediction.contains("memory_bound_s")) return "";
  const double compute = prediction["compute_s"].get<double>(), memory = prediction["memory_bound_s"].get<double>();
  const double launch = prediction.value("launch_bound_s", 0.0);
  if (launch > compute && launch > memory) return "workgroup launch";
  return compute >= memory ? "compute" : "memory";
}

// Predicted against measured time, one colour per experiment, log-log, with
// the line y = x where a perfect model's points would lie.
std::string scatter_plot(const ReportOptions& options, const fs::path& work_dir, const Comparison& comparison) {
  double low = 1e300, high = 0;
  for (const auto& e : comparison.experiments)
    for (const auto& p : e.points) {
      low = std::min({low, p.measured_s, p.predicted_s});
      high = std::max({high, p.measured_s, p.predicted_s});
    }
  low /= 1.5;
  high *= 1.5;
  std::ostringstream gp;
  gp << "set title 'predicted against measured time (validation workloads)' noenhanced\n"
        "set xlabel 'measured time (s)'\nset ylabel 'predicted time (s)'\n"
        "set logscale xy\nset format x '10^{%L}'\nset format y '10^{%L}'\nset grid\n"
        "set key outside right top noenhanced\nset size ratio -1\n";
  gp << "set xrange [" << number(low, 6) << ":" << number(high, 6) << "]\nset yrange [" << number(low, 6) << ":"
     << number(high, 6) << "]\nplot ";
  for (size_t i = 0; i < comparison.experiments.size(); ++i) {
    const ExperimentComparison& e = comparison.experiments[i];
    const fs::path data = work_dir / ("scatter_" + std::to_string(i) + ".dat");
    std::ofstream out(data);
    for (const auto& p : e.points) out << number(p.measured_s, 9) << " " << number(p.predicted_s, 9) << "\n";
    gp << gnuplot_quote(data.string()) << " using 1:2 with points pointtype 7 pointsize 0.6 linecolor " << i % 8 + 1
       << " title " << gnuplot_quote(e.experiment) << ", ";
  }
  gp << "x with lines dashtype 2 linecolor rgb 'black' title 'y = x'\n";
  return run_gnuplot(options, work_dir, gp.str(), "scatter");
}

// Each variant's error over its x values, the model's fastest-leaning
// first: how far apart the model's biases lie says how close on the device
// two variants may come before their order is the model's guess.
void variant_biases_table(std::ostream& html, const ExperimentComparison& e) {
  if (e.biases.size() < 2) return;
  html << "<p>Per variant, its error at every " << html_escape(e.x_param.empty() ? "point" : e.x_param)
       << ": the model ranks two variants right only where the device puts them further apart than their errors "
          "differ.</p>\n<table><thead><tr><th>variant</th><th>points</th><th>mean error</th><th>lowest</th><th>highest"
          "</th></tr></thead><tbody>\n";
  for (const VariantBias& b : e.biases)
    html << "<tr><td>" << html_escape(b.variant) << "</td><td>" << b.points << "</td><td>"
         << percent(b.mean_error_percent) << "</td><td>" << percent(b.lowest_error_percent) << "</td><td>"
         << percent(b.highest_error_percent) << "</td></tr>\n";
  html << "</tbody></table>\n";
}

// Where an experiment's sequences run several pipelines (APSP's phases):
// what the rankings would be with each pipeline's predicted time taken as
// measured, then each point's time a dispatch of each pipeline and the time
// between its dispatches, measured against predicted.
void pipelines_tables(std::ostream& html, const ExperimentComparison& e) {
  if (e.substitutions.empty()) return;
  html << "<p>The rankings again with the predicted time a dispatch of some pipelines, or the time between the "
          "dispatches, replaced by the measured one, the rest of each prediction kept: where the misordered pairs "
          "come from.</p>\n<table><thead><tr><th>taken as measured</th><th>misordered "
          "pairs (beyond the repeats' spread)</th><th>MAPE</th></tr></thead><tbody>\n";
  for (const PipelineSubstitution& s : e.substitutions) {
    std::string replaced;
    for (const std::string& name : s.replaced) replaced += (replaced.empty() ? "" : ", ") + name;
    html << "<tr><td>" << (replaced.empty() ? "none (the model)" : html_escape(replaced)) << "</td><td>"
         << s.misordered << " (" << s.misordered_apart << ")</td><td>" << mape(s.mape_percent) << "</td></tr>\n";
  }
  html << "</tbody></table>\n<p>The rankings with every pipeline's error a dispatch cut to a share of itself, each "
          "prediction moved that far toward its measurement, the time between dispatches kept: how near the "
          "measurements the pipelines' times have to come before the rankings agree.</p>\n<table><thead><tr><th>"
          "share of each pipeline's error kept</th><th>misordered pairs (beyond the repeats' spread)</th><th>MAPE"
          "</th></tr></thead><tbody>\n";
  for (const PipelineSubstitution& s : e.error_scalings)
    html << "<tr" << (s.misordered_apart == 0 ? " class=\"pass\"" : "") << "><td>" << percent_share(s.error_kept)
         << "</td><td>" << s.misordered << " (" << s.misordered_apart << ")</td><td>" << mape(s.mape_percent)
         << "</td></tr>\n";
  html << "</tbody></table>\n<p>The same with one variant's pipeline taken as measured at a time (at every "
          "x): which variant's error in which pipeline the misordered pairs hang on.</p>\n<table><thead><tr><th>"
          "variant</th><th>pipeline taken as measured</th><th>misordered pairs (beyond the repeats' spread)"
          "</th><th>MAPE</th></tr></thead><tbody>\n";
  const size_t as_predicted = e.substitutions.front().misordered_apart;
  for (const PipelineSubstitution& s : e.variant_substitutions)
    html << "<tr" << (s.misordered_apart < as_predicted ? " class=\"pass\"" : "") << "><td>" << html_escape(s.variant)
         << "</td><td>" << html_escape(s.replaced.front()) << "</td><td>" << s.misordered << " ("
         << s.misordered_apart << ")</td><td>" << mape(s.mape_percent) << "</td></tr>\n";
  html << "</tbody></table>\n<table><thead><tr><th>parameters</th>";
  for (const PipelineTime& t : e.points.front().pipelines)
    html << "<th>" << html_escape(t.pipeline) << ": a dispatch, measured / predicted</th><th>error</th>";
  html << "<th>between dispatches, a gap: measured / predicted</th></tr></thead><tbody>\n";
  for (const ComparedPoint& p : e.points) {
    html << "<tr><td>" << html_escape(p.params) << "</td>";
    for (const PipelineTime& t : p.pipelines)
      html << "<td>" << micro_seconds(t.measured_s) << " / " << micro_seconds(t.predicted_s) << "</td><td>"
           << percent((t.predicted_s - t.measured_s) / t.measured_s * 100) << "</td>";
    size_t dispatches = 0;
    for (const PipelineTime& t : p.pipelines) dispatches += t.dispatches;
    const double gaps = double(std::max<size_t>(dispatches, 2) - 1);
    html << "<td>" << micro_seconds(p.measured_between_s / gaps) << " / " << micro_seconds(p.predicted_between_s / gaps)
         << "</td></tr>\n";
  }
  html << "</tbody></table>\n";
}

// The section under the correctness summary: each prediction beside the
// measurement of the same experiment, workload and parameters.
std::string comparison_section(const ReportOptions& options, const fs::path& work_dir, const std::vector<Json>& records) {
  const Comparison c = compare(records);
  std::ostringstream html;
  html << "<section id=\"comparison\"><h2>Predicted vs measured</h2>\n";
  if (c.predictions == 0) {
    html << "<p>No predictions were found among these records: give <code>lanelab report</code> a file written by "
            "<code>lanelab predict --sweep NAME --device MODEL</code> beside the measurements.</p></section>\n";
    return html.str();
  }
  html << "<p>" << c.predictions << " predictions and " << c.measurements << " measurements; a prediction pairs with "
       << "the measurement of the same experiment, workload and parameters. Measured time: the median over the "
          "timed repeats of the whole dispatch sequence; error = (predicted &minus; measured) / measured. ";
  if (c.points_with_runs)
    html << c.points_with_runs << " points were measured in several runs (up to " << c.most_runs
         << "): their runs' repeats are pooled, so the median and the spread a pair of variants is told apart "
            "beyond are those of every run. ";
  html << c.unpaired_predictions << " predictions and " << c.unpaired_measurements
       << " measurements have no partner.</p>\n<p>The microbenchmarks (workload <code>" << kCalibrationWorkload
       << "</code>) calibrate the device model, so they are <strong>left out of every figure here</strong> ("
       << c.calibration_pairs << " calibration pair" << (c.calibration_pairs == 1 ? "" : "s")
       << " excluded); the errors below are on the validation workloads only.</p>\n";
  if (c.experiments.empty()) {
    html << "<p>No validation workload has both a prediction and a measurement.</p></section>\n";
    return html.str();
  }
  size_t points = 0;
  for (const auto& e : c.experiments) points += e.points.size();
  html << "<table><thead><tr><th>experiment</th><th>pairs</th><th>MAPE</th><th>worst error</th><th>worst point</th>"
          "<th>Spearman &rho; (throughput, all points)</th><th>variant ranking by time: mean &rho; per x</th>"
          "<th>winner agrees</th><th>misordered variant pairs (beyond the repeats' spread)</th>"
          "<th>pairs the runs order both ways</th>"
          "<th>winners (measured / predicted)</th>"
          "<th>saturation point within "
       << number(kSaturationFactor) << "&times;</th></tr></thead><tbody>\n";
  for (const auto& e : c.experiments) {
    const ComparedPoint& worst = e.points[e.worst];
    double mean_rho = 0;
    size_t with_rho = 0;
    size_t pairs = 0, misordered = 0, apart = 0, disagree = 0;
    for (const auto& r : e.rankings) {
      pairs += r.pairs;
      disagree += r.runs_disagree;
      misordered += r.misordered();
      apart += r.misordered_apart();
      if (std::isnan(r.spearman)) continue;
      mean_rho += r.spearman;
      ++with_rho;
    }
    html << "<tr><td><a href=\"#" << html_escape(e.experiment) << "\">" << html_escape(e.experiment) << "</a></td><td>"
         << e.points.size() << "</td><td>" << mape(e.mape_percent) << "</td><td>"
         << percent(worst.error_percent) << "</td><td>" << html_escape(worst.label) << "</td><td>" << rho(e.spearman)
         << "</td><td>" << (with_rho ? rho(mean_rho / double(with_rho)) : "n/a") << "</td><td>" << e.winners_agree
         << " of " << e.rankings.size() << "</td><td>" << misordered << " of " << pairs << " (" << apart
         << ")</td><td>" << disagree << "</td><td>";
    // The winner at the largest x (the sweep's headline size), or the only ranking.
    if (!e.rankings.empty()) {
      const VariantRanking& r = e.rankings.back();
      html << (r.x.empty() ? "" : html_escape(e.x_param + "=" + r.x) + ": ") << html_escape(r.measured_winner) << " / "
           << html_escape(r.predicted_winner);
    }
    html << "</td><td>";
    if (!e.saturations.empty()) {
      size_t within = 0;
      for (const auto& s : e.saturations) within += s.within_factor();
      html << within << " of " << e.saturations.size();
    }
    html << "</td></tr>\n";
  }
  html << "<tr><th>all</th><th>" << points << "</th><th>" << mape(c.mape_percent)
       << "</th><th colspan=\"9\"></th></tr>\n</tbody></table>\n";
  html << "<figure>" << scatter_plot(options, work_dir, c) << "</figure>\n";
  html << "<p>Each experiment's own section below draws its measured curves solid and its predicted ones dashed, "
          "one colour per variant.</p>\n";
  // Where the sequences run several pipelines: how much of the ranking's
  // error their time a dispatch carries (pipelines_tables has each one).
  std::string every;
  for (const auto& e : c.experiments)
    for (const PipelineSubstitution& s : e.substitutions)
      if (s.replaced.size() == e.points.front().pipelines.size())
        every += (every.empty() ? "" : "; ") + html_escape(e.experiment) + ": " +
                 std::to_string(e.substitutions.front().misordered_apart) + " as predicted, " +
                 std::to_string(s.misordered_apart) + " with every pipeline as measured" + error_scalings_text(e);
  if (!every.empty())
    html << "<p>Where an experiment's sequences run several pipelines, the pairs it misorders beyond the spread "
            "as predicted and with every pipeline's time a dispatch taken as measured, the time between dispatches "
            "kept (its section below takes each pipeline alone too): "
         << every << ".</p>\n";

  for (const auto& e : c.experiments) {
    html << "<details><summary>" << html_escape(e.experiment) << ": " << e.points.size() << " pairs, MAPE "
         << mape(e.mape_percent) << ", rankings and every pair</summary>\n";
    if (!e.rankings.empty()) {
      html << "<table><thead><tr><th>" << html_escape(e.x_param.empty() ? "ranked" : e.x_param)
           << "</th><th>variants</th><th>Spearman &rho;</th><th>misordered pairs (beyond the repeats' spread)</th>"
              "<th>pairs the runs order both ways</th><th>measured winner</th><th>predicted winner</th></tr></thead><tbody>\n";
      for (const auto& r : e.rankings)
        html << "<tr" << (r.winner_agrees ? "" : " class=\"fail\"") << "><td>"
             << html_escape(r.x.empty() ? "(all)" : r.x) << "</td><td>" << r.variants << "</td><td>" << rho(r.spearman)
             << "</td><td>" << r.misordered() << " of " << r.pairs << " (" << r.misordered_apart() << ")</td><td>"
             << r.runs_disagree << "</td><td>" << html_escape(r.measured_winner) << "</td><td>" << html_escape(r.predicted_winner) << "</td></tr>\n";
      html << "</tbody></table>\n";
      misordered_pairs_table(html, e);
    }
    variant_biases_table(html, e);
    pipelines_tables(html, e);
    if (!e.saturations.empty()) {
      html << "<table><thead><tr><th>variant</th><th>" << html_escape(e.x_param)
           << " where the throughput reaches " << int(kSaturationFraction * 100)
           << "% of its best: measured</th><th>predicted</th><th>predicted / measured</th></tr></thead><tbody>\n";
      for (const auto& s : e.saturations) {
        html << "<tr" << (s.within_factor() ? "" : " class=\"fail\"") << "><td>" << html_escape(s.variant) << "</td><td>"
             << number(s.measured_x, 3) << "</td><td>" << number(s.predicted_x, 3) << "</td><td>"
             << number(s.ratio, 3) << "</td></tr>\n";
      }
      html << "</tbody></table>\n";
    }
    html << "<table><thead><tr><th>parameters</th><th>measured</th><th>each run's median</th><th>predicted</th>"
            "<th>error</th><th>bound</th>"
            "<th>compute</th><th>DRAM</th><th>dispatch overhead</th><th>correctness</th></tr></thead><tbody>\n";
    for (const auto& p : e.points) {
      const Json& pr = *p.prediction;
      std::string runs;
      if (p.run_medians_s.size() > 1)
        for (double median : p.run_medians_s) runs += (runs.empty() ? "" : " / ") + micro_seconds(median);
      html << "<tr><td>" << html_escape(p.params) << "</td><td>" << micro_seconds(p.measured_s) << "</td><td>" << runs
           << "</td><td>"
           << micro_seconds(p.predicted_s) << "</td><td>" << percent(p.error_percent) << "</td><td>"
           << bound_of(pr) << "</td><td>" << (pr.contains("compute_s") ? micro_seconds(pr["compute_s"].get<double>()) : "")
           << "</td><td>" << (pr.contains("memory_bound_s") ? micro_seconds(pr["memory_bound_s"].get<double>()) : "")
           << "</td><td>" << (pr.contains("overhead_s") ? micro_seconds(pr["overhead_s"].get<double>()) : "")
           << "</td><td>" << html_escape(status_of(*p.measurement)) << "</td></tr>\n";
    }
    html << "</tbody></table></details>\n";
  }
  html << "</section>\n";
  return html.str();
}

const char* kStyle = R"(body{font-family:sans-serif;margin:2em;max-width:1400px;color:#222}
table{border-collapse:collapse;font-size:13px;margin:1em 0}th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}
th{background:#eee}tr.fail td{background:#fdd}tr.pass td{background:#dfd}.ok{color:#070}.bad{color:#b00;font-weight:bold}
figure{margin:0}svg{max-width:100%;height:auto}section{margin-top:2em})";

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string write_report(const std::vector<Json>& records, const std::string& out_dir, const ReportOptions& options) {
  fs::create_directories(out_dir);
  const fs::path work_dir = fs::path(out_dir) / ".plots";
  fs::create_directories(work_dir);

  std::vector<const Json*> measurements;
  std::map<std::string, size_t> status_counts;
  std::vector<const Json*> failures;
  std::set<std::string> devices;
  for (const auto& r : records) {
    if (r.value("source", "measurement") != "measurement") continue;
    measurements.push_back(&r);
    ++status_counts[status_of(r)];
    if (is_failure(r)) failures.push_back(&r);
    devices.insert(device_name(r) + " (" + (r.contains("device") ? r["device"].value("driver_name", "") + " " +
                                                                       r["device"].value("driver_version", "")
                                                                 : "") + ")");
  }

  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << html_escape(options.title)
       << "</title><style>" << kStyle << "</style></head><body>\n<h1>" << html_escape(options.title) << "</h1>\n";
  html << "<section id=\"correctness\"><h2>Correctness</h2><p>" << measurements.size() << " measurements on ";
  for (const auto& d : devices) html << html_escape(d) << "; ";
  html << "</p><p>";
  for (const auto& [status, count] : status_counts) html << html_escape(status) << ": " << count << " &nbsp; ";
  html << "</p>\n";
  if (failures.empty()) {
    html << "<p class=\"ok\">Every checked output matched its CPU reference"
         << " (and the simulator's output, where compared).</p>\n";
  } else {
    html << "<p class=\"bad\">" << failures.size() << " failed validation" << (failures.size() > 1 ? "s" : "")
         << ":</p>\n<table><thead><tr><th>experiment</th><th>device</th><th>workload</th><th>parameters</th>"
            "<th>status</th><th>message</th><th>simulator</th></tr></thead><tbody>\n";
    for (const Json* r : failures) {
      html << "<tr class=\"fail\"><td>" << html_escape(r->value("experiment", "")) << "</td><td>"
           << html_escape(device_name(*r)) << "</td><td>" << html_escape(r->value("workload", "")) << "</td><td>"
           << html_escape(record_params_text(*r, false)) << "</td><td>" << html_escape(status_of(*r)) << "</td><td>"
           << html_escape(r->contains("correctness") ? (*r)["correctness"].value("message", "") : "") << "</td><td>"
           << html_escape(r->contains("simulator") ? (*r)["simulator"].value("message", "") : "") << "</td></tr>\n";
    }
    html << "</tbody></table>\n";
  }
  html << "</section>\n";
  html << comparison_section(options, work_dir, records);

  // Experiments: the sweeps in their order, then anything else (single runs).
  std::map<std::string, std::vector<const Json*>> by_experiment;
  for (const auto& r : records) by_experiment[r.value("experiment", "single")].push_back(&r);
  std::vector<std::string> order;
  for (const auto& s : all_sweeps())
    if (by_experiment.count(s.name)) order.push_back(s.name);
  for (const auto& [name, list] : by_experiment)
    if (!find_sweep(name)) order.push_back(name);
  for (const auto& name : order) {
    const std::vector<const Json*>& list = by_experiment[name];
    if (const Sweep* sweep = find_sweep(name)) {
      html << experiment_section(options, work_dir, name, sweep->description, sweep->x_param,
                                 split_nonempty(sweep->series, ','), list);
    } else {
      // Single runs: one section per workload, its varying parameters as the series.
      std::map<std::string, std::vector<const Json*>> by_workload;
      for (const Json* r : list) by_workload[r->value("workload", "?")].push_back(r);
      for (const auto& [workload, items] : by_workload) {
        const std::vector<std::string> varying = varying_params(items);
        const std::string x = varying.empty() ? "seed" : varying.front();
        html << experiment_section(options, work_dir, name + "-" + workload, workload + " (" + name + ")", x,
                                   std::vector<std::string>(varying.begin() + (varying.empty() ? 0 : 1), varying.end()),
                                   items);
      }
    }
  }
  html << "</body></html>\n";

  const fs::path index = fs::path(out_dir) / "index.html";
  std::ofstream out(index);
  if (!out) throw Error("cannot write " + index.string());
  out << html.str();
  fs::remove_all(work_dir);
  return index.string();
}

}  // namespace lanelab::validate
