// What the comparison, ranking and page renderers take: a run document with a label, and the
// topology of its hosts when something provides it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/documents/run_json.hpp"

namespace collbench::report {

// One host's GPU/NIC connectivity, already in words: an nvidia-smi-style matrix. The CLI fills
// these from the topology a run file carries (context.topology, see bench/cli/wiring/topology_view.hpp);
// the page draws them, the node ranking compares them, and summary figures use
// `bottleneck_link_gbps` for "% of link".
struct TopologyMatrix {
  std::string host;
  std::vector<std::string> labels;              // row and column labels: "GPU0", "NIC1", ...
  std::vector<std::vector<std::string>> cells;  // cells[i][j]: "NV18", "PIX", "SYS", "X"
  std::vector<std::string> legend;              // "NV18 = 18 NVLinks", ...
  std::optional<double> bottleneck_link_gbps;   // per direction, GB/s
  std::string bottleneck_link;                  // what that link is, for people
};

struct ReportRun {
  std::string label;  // short and unique among the runs of one report: the file name, usually
  RunDocument document;
  std::vector<TopologyMatrix> topology;  // one per host; empty when unknown
};

// The slowest bottleneck link over the run's hosts, when any host's is known.
inline std::optional<double> bottleneck_link_gbps(const ReportRun& run) {
  std::optional<double> slowest;
  for (const auto& t : run.topology) {
    if (t.bottleneck_link_gbps && (!slowest || *t.bottleneck_link_gbps < *slowest)) slowest = t.bottleneck_link_gbps;
  }
  return slowest;
}

}  // namespace collbench::report
