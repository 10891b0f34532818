// `collbench history` as text: one line per series (newest value against its baseline), the
// change points with the context changes at the same run, and a result line.
#pragma once

#include <cstddef>
#include <string>

#include "report/analysis/history.hpp"

namespace collbench::report {

struct HistoryInputCounts {
  std::size_t files = 0;    // files named by the inputs
  std::size_t skipped = 0;  // JSON documents that are not runs
};

std::string format_history_text(const History& history, const HistoryInputCounts& counts,
                                const HistoryOptions& options);

// "1 of 46 series regressed: all_reduce float sum 1M out-of-place, 8 ranks (-12.0%)", at most
// three series named; for the error line of the exit code.
std::string regression_summary(const History& history);

// "+3.5%", "-12.0%".
std::string signed_percent(double percent);

}  // namespace collbench::report
