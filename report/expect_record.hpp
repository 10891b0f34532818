// Expectations of a run (`collbench run --expect FILE`, docs/health.md) and their verdicts:
// plain records, read by report/documents/expect_json.hpp, checked by
// report/analysis/expectations.hpp, printed by the table and kept in the run JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace collbench::report {

inline constexpr const char* kExpectSchemaName = "collbench.expect";
inline constexpr int kExpectSchemaVersion = 1;

// The figure an expectation bounds, and which way.
enum class ExpectBound { kMinBusbw, kMinAlgbw, kMaxTime };
const char* to_string(ExpectBound b);  // "min_busbw_gbps", "min_algbw_gbps", "max_time_us"

// Which placements an expectation holds for. By default both: a node whose in-place path is
// slow is not healthy because its out-of-place path is fast.
enum class ExpectPlacement { kBoth, kOutOfPlace, kInPlace };
const char* to_string(ExpectPlacement p);  // "both", "out_of_place", "in_place"

// One row of the expectations file: a collective and size (dtype and op narrow it when given)
// and one bound.
struct Expectation {
  std::string collective;
  std::uint64_t size_bytes = 0;
  std::optional<std::string> dtype;  // any when absent
  std::optional<std::string> op;     // any when absent
  ExpectPlacement placement = ExpectPlacement::kBoth;
  ExpectBound bound = ExpectBound::kMinBusbw;
  double limit = 0;  // GB/s for the bandwidths, microseconds for the time
  // > 0: a min_busbw bound given as this percentage of the placement's busbw bound
  // (RunContext::expected_busbw); `limit` is set from it before the run.
  double percent_of_bound = 0;
};

// The verdict on one expectation: the worst matching figure against the bound. A row that was
// not measured (not in the sweep, skipped, or the run ended first) fails.
struct ExpectationResult {
  Expectation expectation;
  bool measured = false;
  double figure = 0;      // the worst figure over the matching measurements (when measured)
  std::string placement;  // the placement of that figure: "out_of_place" or "in_place"
  bool passed = false;
  std::string message;  // one line, without "PASS"/"FAIL"
};

}  // namespace collbench::report
