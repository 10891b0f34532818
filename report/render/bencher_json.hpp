// A run in Bencher Metric Format (BMF) JSON, what `bencher run --adapter json` reads
// (bencher.dev/docs/reference/bencher-metric-format, schema bencher.dev/bmf.json; read at
// bencherdev/bencher 8d75325c, v0.6.12):
//   { "<benchmark name>": { "<measure slug>": { "value": N, "lower_value": N, "upper_value": N } } }
// One benchmark per tracker point (tracker_points.hpp), with three measures:
//   "busbw"   bus bandwidth in GB/s (a measure Bencher creates on first use),
//   "algbw"   algorithm bandwidth in GB/s (likewise),
//   "latency" the headline time in nanoseconds (Bencher's built-in Latency measure is in ns).
// lower_value and upper_value are the iterations' spread band, present only with per-iteration
// statistics.
#pragma once

#include <string>

#include "report/documents/run_json.hpp"

namespace collbench::report {

std::string bencher_json_text(const RunDocument& document);

}  // namespace collbench::report
