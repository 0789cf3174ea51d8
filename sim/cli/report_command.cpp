// lanelab report RESULTS.jsonl --out DIR: the results page (DIR/index.html),
// self-contained, with gnuplot's SVG plots inline.
#include <boost/program_options.hpp>
#include <iostream>

#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/common/error.h"
#include "validate/report.h"
#include "validate/results_log.h"

namespace po = boost::program_options;

namespace lanelab::cli {

int report_command(const Args& args) {
  po::options_description options("lanelab report RESULTS.jsonl... --out DIR");
  options.add_options()("help,h", "show this help")("out,o", po::value<std::string>()->default_value("report"),
                                                      "folder for index.html")(
      "title", po::value<std::string>()->default_value("lanelab validation"), "the page's title");
  const auto parsed = parse_command_line(args, options, "report", "results", /*many=*/true);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (!vm.count("results")) throw Error("lanelab report needs a RESULTS.jsonl (see lanelab report --help)");
  std::vector<nlohmann::json> records;
  for (const auto& path : vm["results"].as<std::vector<std::string>>()) {
    auto more = validate::read_records(path);
    records.insert(records.end(), more.begin(), more.end());
  }
  validate::ReportOptions report;
  report.title = vm["title"].as<std::string>();
  std::cout << validate::write_report(records, vm["out"].as<std::string>(), report) << "\n";
  return 0;
}

static const Registration registration{"report", report_command,
                                         "write the HTML page of validation results with gnuplot plots"};

}  // namespace lanelab::cli
