#include "sim/trace/bank_picture.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "sim/common/error.h"
#include "sim/timing/bank_model.h"

namespace lanelab::trace {

namespace {

uint32_t words_per_lane(const BankPicture& p) {
  const uint32_t width = std::max(1u, p.device.bank_width_bytes);
  return std::max(1u, (p.bytes_per_lane + width - 1) / width);
}

std::string join_words(const std::vector<uint64_t>& words, size_t limit) {
  std::string text;
  for (size_t i = 0; i < words.size() && i < limit; ++i) text += (i ? " " : "") + std::to_string(words[i]);
  if (words.size() > limit) text += " ...";
  return text;
}

}  // namespace

std::string BankPicture::degree_text() const {
  return degree > 1 ? std::to_string(degree) + "-way bank conflict" : "no bank conflict";
}

BankPicture picture_bank_access(const DeviceModel& device, core::LaneMask lanes,
                                const std::vector<uint64_t>& addresses, uint32_t bytes_per_lane) {
  if (device.shared_banks == 0 || device.bank_width_bytes == 0)
    throw Error("device model " + device.name + " has no shared-memory banks (shared_banks, bank_width_bytes)");
  if (addresses.size() > 64) throw Error("at most 64 lanes in one access");
  if (addresses.size() < 64) lanes &= (core::LaneMask{1} << addresses.size()) - 1;
  BankPicture p;
  p.device = device;
  p.bytes_per_lane = std::max(1u, bytes_per_lane);
  p.lanes = lanes;
  p.addresses = addresses;
  p.addresses.resize(64, 0);
  const timing::DistinctWordBankModel model(device);
  const uint32_t together = model.lanes_per_group(p.bytes_per_lane);
  p.lanes_per_group = together;
  uint32_t worst = 0;
  for (uint32_t first = 0; first < 64 && (lanes >> first); first += together) {
    const uint32_t last = std::min(63u, first + together - 1);
    const core::LaneMask group_mask =
        (last == 63 ? ~core::LaneMask{0} : (core::LaneMask{1} << (last + 1)) - 1) & ~((core::LaneMask{1} << first) - 1);
    LaneGroupBanks group;
    group.first_lane = first;
    group.last_lane = last;
    group.lanes = lanes & group_mask;
    if (!group.lanes) continue;
    group.bank_words.resize(device.shared_banks);
    core::for_each_lane(group.lanes, [&](uint32_t lane) {
      for (uint32_t w = 0; w < words_per_lane(p); ++w) {
        const uint64_t word = p.word_of(lane) + w;
        auto& words = group.bank_words[p.bank_of(word)];
        if (std::find(words.begin(), words.end(), word) == words.end()) words.push_back(word);
      }
    });
    for (auto& words : group.bank_words) std::sort(words.begin(), words.end());
    group.degree = model.access(group.lanes, p.addresses.data(), p.bytes_per_lane).wavefronts;
    if (group.degree > worst) {
      worst = group.degree;
      size_t busiest = 0;
      for (size_t b = 0; b < group.bank_words.size(); ++b)
        if (group.bank_words[b].size() > group.bank_words[busiest].size()) busiest = b;
      p.busiest_bank = uint32_t(busiest);
    }
    p.groups.push_back(std::move(group));
  }
  p.degree = std::max(1u, worst);
  const timing::BankAccess access = model.access(lanes, p.addresses.data(), p.bytes_per_lane);
  p.wavefronts = access.wavefronts;
  p.replays = access.replays;
  return p;
}

std::string bank_text(const BankPicture& p, const std::string& title) {
  std::ostringstream out;
  const DeviceModel& d = p.device;
  out << title << "\n";
  out << d.name << ": " << d.shared_banks << " banks of " << d.bank_width_bytes << " bytes, "
      << p.lanes_per_group << " lanes served together";
  if (p.lanes_per_group < d.bank_lanes_served_together)
    out << " (" << p.bytes_per_lane << "-byte lanes: a pass moves at most " << d.shared_banks * d.bank_width_bytes
        << " bytes)";
  out << "\n";
  for (const auto& g : p.groups) {
    out << "lanes " << g.first_lane << "-" << g.last_lane << " (" << core::lane_count(g.lanes) << " active), distinct words per bank:\n";
    std::ostringstream banks, words;
    banks << "  bank ";
    words << "  words";
    for (size_t b = 0; b < g.bank_words.size(); ++b) {
      banks << std::setw(3) << b;
      words << std::setw(3) << g.bank_words[b].size();
    }
    out << banks.str() << "\n" << words.str() << "\n";
  }
  const LaneGroupBanks* worst = nullptr;
  for (const auto& g : p.groups)
    if (!worst || g.degree > worst->degree) worst = &g;
  if (worst) {
    const auto& words = worst->bank_words[p.busiest_bank];
    out << "busiest bank: " << p.busiest_bank << " (lanes " << worst->first_lane << "-" << worst->last_lane << "), "
        << words.size() << (words.size() == 1 ? " word: " : " distinct words: ") << join_words(words, 8) << "\n";
  }
  out << p.degree_text() << "; " << p.wavefronts << (p.wavefronts == 1 ? " wavefront" : " wavefronts") << " for "
      << p.groups.size() << (p.groups.size() == 1 ? " lane group" : " lane groups") << ", " << p.replays
      << (p.replays == 1 ? " replay" : " replays") << "\n";
  return out.str();
}

std::string bank_dot(const BankPicture& p, const std::string& title) {
  std::ostringstream dot;
  std::string escaped;
  for (char c : title) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  dot << "digraph banks {\n  label=\"" << escaped << "\\n" << p.degree_text() << ", " << p.wavefronts
      << " wavefront(s)\";\n  labelloc=t;\n  rankdir=LR;\n  ranksep=2;\n"
      << "  node [shape=box, fontname=\"monospace\", fontsize=10, height=0.2];\n  edge [arrowsize=0.5];\n";
  std::vector<bool> conflicted(p.device.shared_banks, false), used(p.device.shared_banks, false);
  for (const auto& g : p.groups)
    for (size_t b = 0; b < g.bank_words.size(); ++b) {
      if (!g.bank_words[b].empty()) used[b] = true;
      if (g.bank_words[b].size() > 1) conflicted[b] = true;
    }
  const uint32_t words = words_per_lane(p);
  for (size_t i = 0; i < p.groups.size(); ++i) {
    const auto& g = p.groups[i];
    dot << "  subgraph cluster_lanes" << i << " {\n    label=\"lanes " << g.first_lane << "-" << g.last_lane
        << " (served together)\";\n";
    core::for_each_lane(g.lanes, [&](uint32_t lane) {
      dot << "    L" << lane << " [label=\"lane " << lane << ": word " << p.word_of(lane) << "\"];\n";
    });
    dot << "  }\n";
  }
  dot << "  subgraph cluster_banks {\n    label=\"" << p.device.shared_banks << " banks x " << p.device.bank_width_bytes
      << " bytes\";\n";
  for (uint32_t b = 0; b < p.device.shared_banks; ++b) {
    std::vector<uint64_t> all;
    for (const auto& g : p.groups) all.insert(all.end(), g.bank_words[b].begin(), g.bank_words[b].end());
    dot << "    B" << b << " [label=\"bank " << b << (all.empty() ? "" : ": " + join_words(all, 4)) << "\"";
    if (conflicted[b]) dot << ", style=filled, fillcolor=\"#f4b0b0\", color=red";
    else if (!used[b]) dot << ", color=gray, fontcolor=gray";
    dot << "];\n";
  }
  dot << "  }\n";
  for (const auto& g : p.groups)
    core::for_each_lane(g.lanes, [&](uint32_t lane) {
      for (uint32_t w = 0; w < words; ++w) {
        const uint32_t bank = p.bank_of(p.word_of(lane) + w);
        dot << "  L" << lane << " -> B" << bank;
        if (g.bank_words[bank].size() > 1) dot << " [color=red]";
        dot << ";\n";
      }
    });
  dot << "}\n";
  return dot.str();
}

}  // namespace lanelab::trace
