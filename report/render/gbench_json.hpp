// A run in Google Benchmark's JSON layout, as its JSON reporter writes it (version 1.7.1), so
// that tools made for Google Benchmark read collbench results: its tools/compare.py, and CI
// benchmark trackers that accept "googlecpp"/Google Benchmark JSON.
//
// One benchmark entry per (collective, dtype, op, root, placement, size):
//   name  "all_reduce/float/sum/out_of_place/1048576" ("broadcast/float/none/root:0/in_place/8"),
//   run_type "iteration", iterations, real_time = cpu_time = the headline time in time_unit "us"
//   (collbench measures wall time only), bytes_per_second = size / time, and counters
//   busbw_gbps, algbw_gbps, size_bytes, nranks, wrong, median_us, p95_us, cv.
// A size measured in several cycles (-N) gives repetitions of one name. A wrong result or a
// skipped size sets error_occurred and error_message, as a benchmark that reported an error.
#pragma once

#include <string>

#include "report/documents/run_json.hpp"

namespace collbench::report {

std::string gbench_json_text(const RunDocument& document);

// "all_reduce/float/sum/out_of_place/1048576"
std::string gbench_name(const SizeRecord& row, Placement placement);

}  // namespace collbench::report
