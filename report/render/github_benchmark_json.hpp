// A run as the JSON that github-action-benchmark's custom tools read (README "Examples for
// custom benchmarks" and src/extract.ts's BenchmarkResult of benchmark-action/
// github-action-benchmark v1.22.0, c38cce98): an array of
//   { "name": string, "unit": string, "value": number, "range"?: string, "extra"?: string }.
// The tool named in the workflow says which direction is better for the whole file, so one
// file holds one quantity:
//   kBusbw (tool customBiggerIsBetter):  busbw in "GB/s", range the busbw spread band;
//   kTime  (tool customSmallerIsBetter): the headline time in "us", range the time band.
// One entry per tracker point (tracker_points.hpp); `extra` (the chart's tooltip) carries the
// size, the other figures and the run's setup, one fact per line.
#pragma once

#include <string>

#include "report/documents/run_json.hpp"

namespace collbench::report {

enum class GithubBenchmarkQuantity { kBusbw, kTime };

std::string github_benchmark_json_text(const RunDocument& document, GithubBenchmarkQuantity quantity);

}  // namespace collbench::report
