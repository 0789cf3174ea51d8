#include "sim/frontend/control_flow.h"

#include <algorithm>

namespace lanelab::frontend {

// Cooper, Harvey & Kennedy's "A Simple, Fast Dominance Algorithm" run on the
// reversed CFG: node n = virtual exit, blocks 0..n-1.
void compute_post_dominators(std::vector<Block>& blocks) {
  const uint32_t n = uint32_t(blocks.size());
  const uint32_t exit = n;
  std::vector<std::vector<uint32_t>> reverse_succ(n + 1);  // successors in the reversed graph = predecessors
  std::vector<std::vector<uint32_t>> reverse_pred(n + 1);  // predecessors in the reversed graph = successors
  for (uint32_t b = 0; b < n; ++b) {
    if (blocks[b].successors.empty()) {
      reverse_pred[b].push_back(exit);
      reverse_succ[exit].push_back(b);
    }
    for (uint32_t s : blocks[b].successors) {
      reverse_pred[b].push_back(s);
      reverse_succ[s].push_back(b);
    }
  }
  // Reverse post-order of the reversed graph from the exit.
  std::vector<uint32_t> order;
  std::vector<uint8_t> seen(n + 1, 0);
  std::vector<std::pair<uint32_t, size_t>> work{{exit, 0}};
  seen[exit] = 1;
  while (!work.empty()) {
    auto& [node, next] = work.back();
    if (next < reverse_succ[node].size()) {
      uint32_t s = reverse_succ[node][next++];
      if (!seen[s]) {
        seen[s] = 1;
        work.push_back({s, 0});
      }
    } else {
      order.push_back(node);
      work.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());
  std::vector<uint32_t> rank(n + 1, UINT32_MAX);
  for (uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;

  constexpr uint32_t kUndefined = UINT32_MAX;
  std::vector<uint32_t> idom(n + 1, kUndefined);
  idom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (rank[a] > rank[b]) a = idom[a];
      while (rank[b] > rank[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t node : order) {
      if (node == exit) continue;
      uint32_t new_idom = kUndefined;
      for (uint32_t p : reverse_pred[node]) {
        if (idom[p] == kUndefined) continue;
        new_idom = new_idom == kUndefined ? p : intersect(p, new_idom);
      }
      if (new_idom != kUndefined && idom[node] != new_idom) {
        idom[node] = new_idom;
        changed = true;
      }
    }
  }
  // Blocks that never reach a return (infinite loops) reconverge only at exit.
  for (uint32_t b = 0; b < n; ++b)
    blocks[b].ipdom = (idom[b] == kUndefined || idom[b] == exit) ? kExitBlock : idom[b];
}

}  // namespace lanelab::frontend
