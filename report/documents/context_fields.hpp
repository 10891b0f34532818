// The parts of a run's context that make two runs comparable or not, as words, side by side:
// used by compare (what differs) and by the node ranking (everything, differences marked).
#pragma once

#include <string>
#include <vector>

#include "report/record.hpp"

namespace collbench::report {

struct ContextRow {
  std::string field;                // "collbench", "backend", "ranks", "env NCCL_ALGO", ...
  std::vector<std::string> values;  // one per context; "-" when a context lacks it
  bool differs = false;
};
using ContextTable = std::vector<ContextRow>;

// Start times, process ids and launcher bookkeeping in the environment (job ids, addresses,
// session directories) are left out: they always differ and say nothing.
ContextTable context_table(const std::vector<const RunContext*>& contexts);

// "2x NVIDIA H100 80GB HBM3, 1x CPUs 0-3": distinct device names with their counts.
std::string describe_devices(const RunContext& context);

}  // namespace collbench::report
