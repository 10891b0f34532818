// `collbench history --json` ("schema": "collbench.history") and `--csv` (one row per point of
// each series, the change points marked): docs/history.md describes both.
#pragma once

#include <string>

#include "report/analysis/history.hpp"
#include "report/render/history_text.hpp"

namespace collbench::report {

inline constexpr const char* kHistorySchemaName = "collbench.history";
inline constexpr int kHistorySchemaVersion = 1;

std::string history_json(const History& history, const HistoryInputCounts& counts, const HistoryOptions& options);

// Columns: fingerprint, collective, dtype, op, root, size_bytes, placement, ranks, index, path,
// time, busbw_gbps, change_point (1 on the first point of a new segment), segment_median_gbps,
// regressed (the series' verdict, on its newest point only). CRLF line ends (RFC 4180).
std::string history_csv(const History& history);

}  // namespace collbench::report
