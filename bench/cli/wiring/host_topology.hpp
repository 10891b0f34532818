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
  std::string json;  // collbench.topology document (with analysis)
  topo::Topology model;
};

// This host's topology: the live machine, or the capture that COLLBENCH_TOPOLOGY_FILE names (any
// format `topo -i` reads) standing in for it under this host's own name. A multi-host job can
// so give one host another topology for real (scripts/cluster.sh fault topo), and a machine
// whose live discovery is known to be wrong can be described by hand. The variable is
// collbench's own: hwloc's HWLOC_XMLFILE would also change what MPI and NCCL see.
Result<topo::Topology> discover_this_host(const std::string& host);

// Rank 0 gets one entry per host that could discover its topology; `failures` collects the
// one-line reasons of the others (e.g. "node7: hwloc: ..."). Other ranks get an empty list.
Result<std::vector<HostTopology>> gather_host_topologies(bootstrap::Bootstrap& boot, const std::string& host,
                                                         std::vector<std::string>& failures);

}  // namespace collbench::cli
