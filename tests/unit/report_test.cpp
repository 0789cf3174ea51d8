#include "validate/report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lanelab::validate {
namespace {

nlohmann::json measured(const std::string& kernel, const std::string& workgroup_size, double rate,
                        const std::string& status) {
  return {{"source", "measurement"},
          {"device", {{"name", "Test GPU"}, {"driver_name", "test"}, {"driver_version", "1.0"}}},
          {"workload", "transpose"},
          {"experiment", "transpose-workgroup"},
          {"params", {{"kernel", kernel}, {"workgroup_size", workgroup_size}}},
          {"throughput", {{"value", rate}, {"unit", "transposes/s"}}},
          {"timing", {{"stats", {{"median", 1000.0}, {"iqr", 10.0}, {"min", 990.0}}}}},
          {"launch_overhead_ns", 2000.0},
          {"correctness", {{"status", status}, {"message", status == "passed" ? "ok" : "matrix 3 row 1 <wrong>"}}}};
}

TEST(Report, EscapesHtml) { EXPECT_EQ(html_escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;"); }

TEST(Report, FailuresComeFirstAndPredictionsSitBesideMeasurements) {
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  std::vector<nlohmann::json> records = {measured("Shuffle8", "32", 1e9, "passed"),
                                         measured("Shuffle8", "64", 2e9, "passed"),
                                         measured("Ballot32", "64", 3e9, "failed")};
  nlohmann::json prediction = measured("Shuffle8", "64", 2.5e9, "passed");
  prediction["source"] = "prediction";
  records.push_back(prediction);
  const auto dir = std::filesystem::temp_directory_path() / "lanelab_report_test";
  std::filesystem::remove_all(dir);
  const std::string index = write_report(records, dir.string());
  std::ifstream in(index);
  std::stringstream text;
  text << in.rdbuf();
  const std::string html = text.str();
  const auto failure = html.find("matrix 3 row 1 &lt;wrong&gt;");
  const auto section = html.find("id=\"transpose-workgroup\"");
  ASSERT_NE(failure, std::string::npos);
  ASSERT_NE(section, std::string::npos);
  EXPECT_LT(failure, section);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("(predicted)"), std::string::npos);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);  // the SVGs are inlined, not files
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

std::string report_of(const std::vector<nlohmann::json>& records, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::ifstream in(write_report(records, dir.string()));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Report, SaysWhenNoPredictionsWereGiven) {
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  const std::string html = report_of({measured("Shuffle8", "32", 1e9, "passed")}, "lanelab_report_no_predictions");
  const auto section = html.find("Predicted vs measured");
  ASSERT_NE(section, std::string::npos);
  EXPECT_LT(html.find("id=\"correctness\""), section);
  EXPECT_NE(html.find("No predictions were found", section), std::string::npos);
}

TEST(Report, ComparesPredictionsWithMeasurements) {
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  std::vector<nlohmann::json> records = {measured("Shuffle8", "32", 1e9, "passed"),
                                         measured("Ballot32", "32", 0.5e9, "passed")};
  records[1]["timing"]["stats"]["median"] = 2000.0;
  // +60% and +20%: the ranking (Shuffle8 first) holds.
  for (const auto& [kernel, seconds] : {std::pair{"Shuffle8", 1.6e-6}, std::pair{"Ballot32", 2.4e-6}}) {
    nlohmann::json prediction = measured(kernel, "32", 1e9, "passed");
    prediction["source"] = "prediction";
    prediction["time_s"] = seconds;
    records.push_back(prediction);
  }
  const std::string html = report_of(records, "lanelab_report_comparison");
  const auto section = html.find("Predicted vs measured");
  ASSERT_NE(section, std::string::npos);
  EXPECT_NE(html.find("left out of every figure here", section), std::string::npos);
  // Pairs, MAPE, worst error and where, Spearman, winners.
  EXPECT_NE(html.find("<td>2</td><td>40.0%</td><td>+60.0%</td><td>workgroup_size=32 kernel=Shuffle8</td>"
                      "<td>1.000</td><td>1.000</td><td>1 of 1</td>",
                      section),
            std::string::npos);
  EXPECT_NE(html.find("y = x", section), std::string::npos);
  // Each variant's error, the model's fastest-leaning first.
  const auto ballot = html.find("<tr><td>kernel=Ballot32</td><td>1</td><td>+20.0%</td>", section);
  const auto shuffle = html.find("<tr><td>kernel=Shuffle8</td><td>1</td><td>+60.0%</td>", section);
  EXPECT_NE(ballot, std::string::npos);
  EXPECT_LT(ballot, shuffle);
  EXPECT_NE(shuffle, std::string::npos);
}

}  // namespace
}  // namespace lanelab::validate
