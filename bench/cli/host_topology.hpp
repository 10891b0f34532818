// Every host's topology for a multi-rank command: one rank per host discovers it, rank 0
// receives them all.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "bench/bootstrap/bootstrap.hpp"
#include "topo/topology.hpp"

namespace collbench::cli {

struct HostTopology {
  std::string host;
  std::string json;        // collbench.topology document (with analysis)
  topo::Topology model;
};

// Rank 0 gets one entry per host that could discover its topology; `failures` collects the
// one-line reasons of the others (e.g. "node7: hwloc: ..."). Other ranks get an empty list.
Result<std::vector<HostTopology>> gather_host_topologies(bootstrap::Bootstrap& boot, const std::string& host,
                                                         std::vector<std::string>& failures);

}  // namespace collbench::cli
