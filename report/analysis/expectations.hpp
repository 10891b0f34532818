// `collbench run --expect`: each expectation checked against the measured rows (a pure
// function, so that the table, the JSON and the exit code agree on the same verdicts).
//
// An expectation matches the rows of its collective and size (and dtype and op when it names
// them) and, by default, both placements; every matching measurement must meet the bound, so
// the verdict is that of the worst figure (several cycles, -N, count each). An expectation
// that matches no measurement is "not measured" and fails: a health check that did not run
// is no pass.
#pragma once

#include <optional>
#include <vector>

#include "common/status.hpp"
#include "report/record.hpp"

namespace collbench::report {

std::vector<ExpectationResult> check_expectations(const std::vector<SizeRecord>& rows,
                                                  const std::vector<Expectation>& expectations);

// Sets the limit of every min_busbw_percent_of_bound expectation from the placement's busbw
// bound. kUsage, naming the row and why the bound is unknown, when there is none to take a
// share of.
Status apply_busbw_bound(std::vector<Expectation>& expectations, const std::optional<ExpectedBusbw>& bound);

// Ok when every verdict passed; else ErrorCode::kBelowExpectation with the count and the first
// failure ("1 of 2 expectations failed (--expect): all_reduce 1048576 B: ...").
Status expectations_met(const std::vector<ExpectationResult>& results);

}  // namespace collbench::report
