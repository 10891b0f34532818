// Node comparison for procurement and fleet health: several runs (one per node or per
// candidate machine) ranked by busbw at a reference size, the ones well below the median
// flagged, and their contexts side by side. A single multi-node run cannot give per-node
// busbw (a collective is measured as a whole); for it the ranking lists which host was the
// slowest rank how often.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/documents/context_fields.hpp"
#include "report/documents/report_input.hpp"
#include "report/analysis/series.hpp"
#include "report/analysis/summary_figures.hpp"

namespace collbench::report {

struct RankingOptions {
  double flag_below = 0.10;  // flag runs whose score is more than this fraction below the median
};

struct RankedRun {
  std::string label;
  int nranks = 0;
  std::string hosts;
  std::optional<double> score_gbps;  // nullopt: the run lacks the basis series
  std::optional<SeriesFigures> figures;
  std::optional<double> vs_median;  // score / median
  bool flagged = false;
  int place = 0;                      // 1 = best; 0 = not ranked
  std::vector<std::string> problems;  // wrong data, unfinished run, ...
};

// How often each host of a multi-host run held the slowest rank.
struct StragglerRow {
  std::string run;
  std::string host;
  std::size_t slowest = 0;  // points where this host held the slowest rank
  std::size_t points = 0;   // measured points in the run
  // Median over those points of (slowest rank's mean time / headline time) - 1.
  double median_excess = 0;
};

struct Ranking {
  std::optional<SeriesKey> basis;           // the series every run has; nullopt when none is common
  std::optional<std::uint64_t> score_size;  // the reference size ranked on; nullopt: peak busbw
  double flag_below = 0.10;
  double median_gbps = 0;
  std::vector<RankedRun> runs;      // best first; unranked runs last, in input order
  std::vector<std::string> labels;  // input order, the columns of `context`
  ContextTable context;             // plus topology rows when known
  std::vector<StragglerRow> stragglers;
  std::vector<std::string> notes;

  std::size_t flagged() const;
  // "busbw at 1 GiB (all_reduce float sum out-of-place)" or "peak busbw (...)".
  std::string score_name() const;
};

Ranking rank_runs(const std::vector<ReportRun>& runs, const RankingOptions& options);

}  // namespace collbench::report
