// Rows that do not look like their neighbours: a bandwidth that collapses at large sizes, or
// iteration times so scattered that the headline means little. Pure analysis of the rows.
#pragma once

#include <vector>

#include "report/record.hpp"

namespace collbench::report {

// A "drop": busbw at a size of at least 64 KiB below a third of the best busbw of a smaller
// size of the same series. A "spread": coefficient of variation above 1 or p95 more than five
// times the median. The message names the likely cause where it can be known, e.g. the MPI
// large-allocation cliff on host memory (see docs/performance.md).
std::vector<Anomaly> find_anomalies(const std::vector<SizeRecord>& rows, const RunContext& context);

}  // namespace collbench::report
