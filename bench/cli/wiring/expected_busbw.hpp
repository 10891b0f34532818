// The run's "% of expected": the busbw bound of the job's placement (topo/busbw_bound.hpp), from
// each host's topology and, on host memory, each host's memory copy bandwidth measured now.
#pragma once

#include <vector>

#include "bench/bootstrap/bootstrap.hpp"
#include "bench/cli/wiring/host_topology.hpp"
#include "report/record.hpp"

namespace collbench::cli {

// Every rank calls it, and every rank gets the bound that rank 0 computed. On host memory, local
// rank 0 of each host measures the host's copy bandwidth while the host's other ranks wait in
// the exchange. `hosts` is rank 0's gather_host_topologies() (empty without topology).
Result<report::ExpectedBusbw> agree_expected_busbw(bootstrap::Bootstrap& boot, const report::RunContext& context,
                                                   const std::vector<HostTopology>& hosts);

}  // namespace collbench::cli
