// The topology a run file carries (context.topology: one collbench.topology document per host)
// as the report's matrix views: the GPU/NIC path matrix in nvidia-smi's words, and for a
// one-host run the slowest GPU-GPU link among the GPUs it used (for "% of link").
#pragma once

#include <vector>

#include "report/record.hpp"
#include "report/documents/report_input.hpp"

namespace collbench::cli {

// One view per recorded host, in the run's order. A document that cannot be read gives a view
// with no matrix and a legend line that says why (a report never fails over topology).
std::vector<report::TopologyMatrix> topology_views(const report::RunContext& context);

}  // namespace collbench::cli
