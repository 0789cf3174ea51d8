// Runs every command a lecture shows and compares its output with the lesson.
// A lesson marks them as fenced ```console blocks: each "$ lanelab ..." line is
// a command run from the repository root (stderr merged into stdout), and the
// lines after it, up to the next "$ " line or the end of the block, are its
// exact expected output.
//   lecture_runner LANELAB LESSON.md           check (exit 1 on a difference)
//   lecture_runner LANELAB LESSON.md --update  rewrite the expected outputs
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string run(const std::string& lanelab, const std::string& command) {
  std::string line = command;
  if (line.rfind("lanelab ", 0) == 0) line = "'" + lanelab + "' " + line.substr(8);
  FILE* pipe = popen((line + " 2>&1").c_str(), "r");
  if (!pipe) return "(could not run)\n";
  std::string out;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  pclose(pipe);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    line.erase(line.find_last_not_of(" \t\r") + 1);
    lines.push_back(line);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: lecture_runner LANELAB LESSON.md [--update]\n";
    return 2;
  }
  const std::string lanelab = argv[1], lesson = argv[2];
  const bool update = argc > 3 && std::string(argv[3]) == "--update";
  std::ifstream in(lesson);
  if (!in) {
    std::cerr << "cannot read " << lesson << "\n";
    return 2;
  }
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  std::vector<std::string> out;  // the lesson with fresh outputs (--update)
  int commands = 0, failures = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    out.push_back(lines[i]);
    if (lines[i] != "```console") continue;
    size_t end = i + 1;
    while (end < lines.size() && lines[end] != "```") ++end;
    size_t j = i + 1;
    while (j < end) {
      if (lines[j].rfind("$ ", 0) != 0) {
        out.push_back(lines[j++]);
        continue;
      }
      const std::string command = lines[j].substr(2);
      out.push_back(lines[j]);
      size_t k = j + 1;
      std::vector<std::string> expected;
      while (k < end && lines[k].rfind("$ ", 0) != 0) expected.push_back(lines[k++]);
      while (!expected.empty() && expected.back().empty()) expected.pop_back();
      const std::vector<std::string> actual = lines_of(run(lanelab, command));
      ++commands;
      if (actual != expected) {
        ++failures;
        if (!update) {
          std::cout << lesson << ":" << j + 1 << ": output of `" << command << "` differs from the lesson\n";
          for (size_t n = 0; n < std::max(actual.size(), expected.size()); ++n) {
            const std::string* e = n < expected.size() ? &expected[n] : nullptr;
            const std::string* a = n < actual.size() ? &actual[n] : nullptr;
            if (e && a && *e == *a) continue;
            if (e) std::cout << "  lesson: " << *e << "\n";
            if (a) std::cout << "  now:    " << *a << "\n";
          }
        }
      }
      out.insert(out.end(), actual.begin(), actual.end());
      j = k;
    }
    i = end - 1;
  }
  if (update) {
    std::ofstream write(lesson);
    for (const auto& line : out) write << line << "\n";
    std::cout << lesson << ": " << commands << " commands, " << failures << " outputs updated\n";
    return 0;
  }
  std::cout << lesson << ": " << commands << " commands, " << failures << " differ\n";
  return failures == 0 && commands > 0 ? 0 : 1;
}
