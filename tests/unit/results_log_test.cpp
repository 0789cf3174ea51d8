#include "validate/results_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/common/error.h"

namespace lanelab::validate {
namespace {

std::string temp_file(const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() / ("lanelab_" + name);
  std::filesystem::remove(path);
  return path.string();
}

nlohmann::json record(const std::string& kernel) {
  return {{"source", "measurement"},
          {"device", {{"name", "llvmpipe"}}},
          {"experiment", "transpose-workgroup"},
          {"workload", "transpose"},
          {"params", {{"kernel", kernel}, {"matrices", "64"}}}};
}

TEST(ResultsLog, EachRecordIsOnDiskAsSoonAsItIsAppended) {
  const std::string path = temp_file("append.jsonl");
  ResultsLog log(path, false);
  log.append(record("Shuffle8"));
  ASSERT_EQ(read_records(path).size(), 1u);  // read while the log is still open
  log.append(record("Ballot32"));
  const auto records = read_records(path);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1]["params"]["kernel"], "Ballot32");
}

TEST(ResultsLog, KeyNamesDeviceWorkloadAndParametersInNameOrder) {
  EXPECT_EQ(record_key(record("Shuffle8")), "measurement|llvmpipe|transpose-workgroup|transpose|kernel=Shuffle8,matrices=64");
  nlohmann::json prediction = record("Shuffle8");
  prediction["source"] = "prediction";
  EXPECT_NE(record_key(prediction), record_key(record("Shuffle8")));
}

TEST(ResultsLog, ResumeSkipsWhatIsDoneAndKeepsIt) {
  const std::string path = temp_file("resume.jsonl");
  {
    ResultsLog log(path, false);
    log.append(record("Shuffle8"));
  }
  ResultsLog log(path, true);
  EXPECT_TRUE(log.done(record_key(record("Shuffle8"))));
  EXPECT_FALSE(log.done(record_key(record("Ballot32"))));
  log.append(record("Ballot32"));
  EXPECT_EQ(read_records(path).size(), 2u);
}

TEST(ResultsLog, WithoutResumeTheFileStartsEmpty) {
  const std::string path = temp_file("fresh.jsonl");
  { ResultsLog(path, false).append(record("Shuffle8")); }
  ResultsLog log(path, false);
  EXPECT_FALSE(log.done(record_key(record("Shuffle8"))));
  EXPECT_TRUE(read_records(path).empty());
}

TEST(ResultsLog, RecordCutShortByAnInterruptionIsMeasuredAgain) {
  const std::string path = temp_file("cut.jsonl");
  {
    std::ofstream out(path);
    out << record("Shuffle8").dump() << "\n" << record("Ballot32").dump().substr(0, 40);
  }
  ASSERT_EQ(read_records(path).size(), 1u);
  ResultsLog log(path, true);
  EXPECT_FALSE(log.done(record_key(record("Ballot32"))));
  log.append(record("Ballot32"));
  const auto records = read_records(path);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1]["params"]["kernel"], "Ballot32");
}

TEST(ResultsLog, MalformedLineIsRefusedWithItsPlace) {
  const std::string path = temp_file("malformed.jsonl");
  {
    std::ofstream out(path);
    out << "{not json}\n" << record("Shuffle8").dump() << "\n";
  }
  try {
    read_records(path);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.place().line, 1);
  }
}

}  // namespace
}  // namespace lanelab::validate
