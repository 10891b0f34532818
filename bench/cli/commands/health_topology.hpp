// `collbench health`'s topology step on the CLI's side: the reference every host must match
// (--topo-reference, or the majority of the job's hosts) and each host against it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/bootstrap/bootstrap.hpp"
#include "bench/cli/wiring/host_topology.hpp"
#include "report/health_record.hpp"
#include "topo/topology.hpp"

namespace collbench::cli {

// --topo-reference, read on rank 0 (it need exist there only); every rank agrees on whether it
// is usable, so that a bad file is one usage error (exit 2) before anything runs.
Result<std::optional<topo::Topology>> agree_reference(bootstrap::Bootstrap& boot, const std::string& path);

// Rank 0: each host against the reference file, or against the majority of the job's hosts.
// `failures` are the hosts whose discovery failed (nothing is then checked).
report::TopologyCheck check_topologies(const std::vector<HostTopology>& hosts, const std::vector<std::string>& failures,
                                       const std::optional<topo::Topology>& reference,
                                       const std::string& reference_path);

}  // namespace collbench::cli
