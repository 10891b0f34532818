// Rows that do not look like their neighbours: a bandwidth that collapses at large sizes, or
// iteration times so scattered that the headline means little. Pure analysis of the rows.
#pragma once

#include <vector>

#include "report/record.hpp"

namespace collbench::report {

// One finding per kind and series (collective, type, op, root), with every size it covers:
// - "spread": the headline time (a mean) is at least 25 % and three times the median's
//   confidence interval above the median: scattered iterations move it (one slow iteration
//   in 100,000 does not);
// - "dip": a size of at least 64 KiB whose busbw is 2 x below the geometric mean of its
//   neighbouring sizes' (what the curve makes expected there);
// - "drop": from a size of at least 64 KiB, busbw below a third of the best smaller size;
// - "cache": such a drop on host memory where the ranks' data on the host reaches half the
//   last-level cache and more: explained (a note), not an anomaly.
// The message names the likely cause where it can be known, e.g. the large-allocation cliff
// of a library that allocates per call (RunContext::allocates_per_call: MPI on host memory,
// see docs/performance.md).
std::vector<Anomaly> find_anomalies(const std::vector<SizeRecord>& rows, const RunContext& context);

}  // namespace collbench::report
