#pragma once
// The results page: one self-contained HTML file (CSS and SVG plots inline)
// from a results file. On top, the correctness summary with every failed
// validation listed first; then "Predicted vs measured" (validate/comparison.h:
// errors, MAPE, rankings, a predicted-against-measured scatter plot), or a
// line saying that no predictions were given; then one section per experiment
// with its plot(s), drawn by gnuplot, and its table. Records with
// "source":"prediction" (the simulator's predictions for the same workload and
// parameters) are drawn beside the measurements, dashed, in the same colour.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lanelab::validate {

struct ReportOptions {
  std::string title = "lanelab validation";
  std::string gnuplot = "gnuplot";  // the program that draws the plots
};

// Writes DIR/index.html (and nothing else); returns its path. Throws Error
// when gnuplot is missing or fails.
std::string write_report(const std::vector<nlohmann::json>& records, const std::string& out_dir,
                         const ReportOptions& options = {});

// The HTML-escaped text (&, <, >, ").
std::string html_escape(const std::string& text);

}  // namespace lanelab::validate
