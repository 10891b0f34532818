// The points a benchmark tracker (Bencher, github-action-benchmark) is given from one run: one
// per (collective, dtype, op, root, placement, size) that was measured and is usable, named so
// that the same point of the next run has the same name.
//
// Left out: a size the run skipped; a placement with wrong elements; one whose time, algbw or
// busbw is not a finite number, or whose time is not positive. A size measured in several cycles
// (-N) is represented, as in compare, by its usable cycle with the median busbw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/documents/run_json.hpp"

namespace collbench::report {

// The spread of single iterations (compare's band, docs/reports.md): busbw and algbw from the p95
// time (low) to the minimum time (high), time from the minimum (low) to the p95 (high), each widened
// to include the headline value.
struct TrackerBand {
  double busbw_low_gbps = 0;
  double busbw_high_gbps = 0;
  double algbw_low_gbps = 0;
  double algbw_high_gbps = 0;
  double time_low_us = 0;
  double time_high_us = 0;
};

struct TrackerPoint {
  // "all_reduce float sum out-of-place 1M 8 ranks", "broadcast float root 0 in-place 8 2 ranks"
  std::string name;
  std::uint64_t size_bytes = 0;
  Measurement m;
  std::optional<TrackerBand> band;  // absent without per-iteration statistics (fewer than 2 samples)
};

// In order of first appearance in the run, ascending size within a series.
std::vector<TrackerPoint> tracker_points(const RunDocument& document);

// The size in the largest binary unit that divides it exactly ("1M", "64K", "1536", "3G"), so
// that distinct sizes never share a name.
std::string exact_size_label(std::uint64_t bytes);

}  // namespace collbench::report
