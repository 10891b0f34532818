#include "bench/engine/locate/sim/flow_model.hpp"

#include <cmath>
#include <limits>
#include <queue>
#include <string>

namespace collbench::engine::locate::sim {
namespace {

Status check(std::span<const double> capacity, std::span<const Flow> flows) {
  for (std::size_t r = 0; r < capacity.size(); ++r) {
    if (!(capacity[r] > 0) || !std::isfinite(capacity[r])) {
      return Status::error(ErrorCode::kUsage, "resource " + std::to_string(r) + ": capacity " +
                                                  std::to_string(capacity[r]) + " (must be positive and finite)");
    }
  }
  for (std::size_t f = 0; f < flows.size(); ++f) {
    for (const std::size_t r : flows[f].resources) {
      if (r >= capacity.size()) {
        return Status::error(ErrorCode::kUsage, "flow " + std::to_string(f) + " names resource " + std::to_string(r) +
                                                    " of " + std::to_string(capacity.size()));
      }
    }
  }
  return ok_status();
}

// What is known of each resource while the rates rise.
struct Fill {
  double frozen = 0;     // carried by flows whose rate is settled
  std::size_t open = 0;  // unsettled flows through it (a flow counted once per time it names it)
  std::size_t version = 0;
};

struct Candidate {
  double level = 0;  // the common rate at which the resource fills
  std::size_t resource = 0;
  std::size_t version = 0;
  bool operator>(const Candidate& o) const { return level > o.level; }
};

}  // namespace

Result<std::vector<double>> fair_share(std::span<const double> capacity, std::span<const Flow> flows) {
  COLLBENCH_RETURN_IF_ERROR(check(capacity, flows));
  std::vector<double> rate(flows.size(), std::numeric_limits<double>::infinity());
  std::vector<bool> settled(flows.size(), false);
  std::vector<Fill> fill(capacity.size());
  std::vector<std::vector<std::size_t>> flows_of(capacity.size());
  for (std::size_t f = 0; f < flows.size(); ++f) {
    for (const std::size_t r : flows[f].resources) {
      ++fill[r].open;
      flows_of[r].push_back(f);
    }
  }
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
  const auto push = [&](std::size_t r, double floor) {
    if (fill[r].open == 0) return;
    const double level = (capacity[r] - fill[r].frozen) / static_cast<double>(fill[r].open);
    heap.push({std::max(level, floor), r, ++fill[r].version});
  };
  for (std::size_t r = 0; r < capacity.size(); ++r) push(r, 0);
  while (!heap.empty()) {
    const Candidate c = heap.top();
    heap.pop();
    if (c.version != fill[c.resource].version || fill[c.resource].open == 0) continue;  // stale
    // Every open flow through this resource settles at the level where it fills.
    for (const std::size_t f : flows_of[c.resource]) {
      if (settled[f]) continue;
      settled[f] = true;
      rate[f] = c.level;
      for (const std::size_t r : flows[f].resources) {
        fill[r].frozen += c.level;
        --fill[r].open;
      }
      for (const std::size_t r : flows[f].resources) push(r, c.level);
    }
  }
  return rate;
}

}  // namespace collbench::engine::locate::sim
