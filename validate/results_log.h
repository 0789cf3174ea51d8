#pragma once
// Measurements as JSON Lines: one record per measurement, appended and flushed
// the moment it is complete, so an interrupted sweep loses nothing but the
// measurement in flight. A record's key (source, device, workload, parameters)
// says what was measured; `--resume` skips keys already in the file.
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lanelab::validate {

// "measurement|<device name>|<experiment>|<workload>|k=v,k=v" -- parameters in
// name order. The experiment is part of it: two sweeps may share a point and
// each plots its own measurement of it.
std::string record_key(const nlohmann::json& record);

// A record's parameter as text ("" when it has none of that name).
std::string record_param(const nlohmann::json& record, const std::string& name);

// A record's parameters as "k=v k=v" in name order: with `all`, every one (a
// key for pairing records); otherwise for people, without the seed (it picks
// the input data, not the configuration) and without the empty ones.
std::string record_params_text(const nlohmann::json& record, bool all);

// Every complete record of a results file. A line cut short by an
// interruption is ignored; any other malformed line throws Error naming it.
std::vector<nlohmann::json> read_records(const std::string& path);

class ResultsLog {
 public:
  // Opens `path` for appending (creating it). With `resume`, the keys of the
  // records already there count as done; without, the file is truncated.
  ResultsLog(const std::string& path, bool resume);
  ~ResultsLog();
  ResultsLog(const ResultsLog&) = delete;
  ResultsLog& operator=(const ResultsLog&) = delete;

  bool done(const std::string& key) const { return done_.count(key) > 0; }
  // Writes the record as one line and flushes it to the file.
  void append(const nlohmann::json& record);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::set<std::string> done_;
};

}  // namespace lanelab::validate
