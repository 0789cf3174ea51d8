#include "validate/results_log.h"

#include <fstream>

#include "sim/common/error.h"

namespace lanelab::validate {

static std::string value_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string record_param(const nlohmann::json& record, const std::string& name) {
  if (!record.contains("params") || !record["params"].contains(name)) return "";
  return value_text(record["params"][name]);
}

std::string record_params_text(const nlohmann::json& record, bool all) {
  std::string text;
  if (!record.contains("params")) return text;
  for (const auto& [name, value] : record["params"].items()) {  // nlohmann::json objects iterate in name order
    const std::string v = value_text(value);
    if (!all && (name == "seed" || v.empty())) continue;
    text += (text.empty() ? "" : " ") + name + "=" + v;
  }
  return text;
}

std::string record_key(const nlohmann::json& record) {
  std::string key = record.value("source", "measurement") + "|";
  if (record.contains("device")) key += record["device"].value("name", "");
  key += "|" + record.value("experiment", "") + "|" + record.value("workload", "") + "|";
  if (record.contains("params")) {
    bool first = true;
    for (const auto& [name, value] : record["params"].items()) {  // nlohmann::json objects iterate in name order
      key += (first ? "" : ",") + name + "=" + value_text(value);
      first = false;
    }
  }
  return key;
}

std::vector<nlohmann::json> read_records(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read results file '" + path + "'");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  std::vector<nlohmann::json> records;
  for (size_t i = 0; i < lines.size(); ++i) {
    try {
      records.push_back(nlohmann::json::parse(lines[i]));
    } catch (const nlohmann::json::parse_error& e) {
      // A line cut short (parse error at its end) is the record that was being
      // written when a sweep was interrupted; --resume measures it again.
      if (e.byte >= lines[i].size()) continue;
      throw Error(std::string("not a JSON record: ") + e.what(), Place{path, int(i + 1)});
    }
  }
  return records;
}

ResultsLog::ResultsLog(const std::string& path, bool resume) : path_(path) {
  if (resume) {
    std::ifstream exists(path);
    if (exists) {
      exists.close();
      for (const auto& record : read_records(path)) done_.insert(record_key(record));
      // An interrupted write leaves a line without its newline: end it so the
      // next record starts on a line of its own.
      std::ifstream tail(path, std::ios::binary | std::ios::ate);
      if (tail.tellg() > 0) {
        tail.seekg(-1, std::ios::end);
        char last = 0;
        tail.get(last);
        if (last != '\n') {
          std::FILE* f = std::fopen(path.c_str(), "a");
          if (f) {
            std::fputc('\n', f);
            std::fclose(f);
          }
        }
      }
    }
  }
  file_ = std::fopen(path.c_str(), resume ? "a" : "w");
  if (!file_) throw Error("cannot open results file '" + path + "' for writing");
}

ResultsLog::~ResultsLog() {
  if (file_) std::fclose(file_);
}

void ResultsLog::append(const nlohmann::json& record) {
  const std::string line = record.dump() + "\n";
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    throw Error("cannot write to results file '" + path_ + "'");
  done_.insert(record_key(record));
}

}  // namespace lanelab::validate
