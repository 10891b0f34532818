// `collbench compare`: two runs, point by point, with a verdict that does not mistake noise
// for a regression.
//
// The noise rule. Each measurement carries statistics of its per-iteration times (each
// iteration timed on its own, the slowest rank's time). Its spread band is the range of busbw
// that single iterations reached: from the p95 time (slow end) to the minimum time (fast end),
// widened to include the headline value (the loop average nccl-tests reports, from which busbw
// is computed). With the default 20 iterations the minimum is about the 5th percentile.
// NEW is "slower" when busbw(NEW)/busbw(BASE) < 1 - threshold AND NEW's band lies wholly below
// BASE's band; "faster" symmetrically; otherwise "same". A difference beyond the threshold whose
// bands overlap is "same", marked as within noise. Without statistics (fewer than two samples)
// a band is the headline value alone, so only the threshold applies.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/documents/report_input.hpp"
#include "report/analysis/series.hpp"
#include "report/analysis/summary_figures.hpp"

namespace collbench::report {

struct CompareOptions {
  std::uint64_t min_size = 0;
  std::uint64_t max_size = std::numeric_limits<std::uint64_t>::max();
  double threshold = 0.05;  // a fraction: 0.05 is 5%
};

enum class Verdict { kFaster, kSame, kSlower, kUnknown };
std::string_view to_string(Verdict verdict);  // "faster", "same", "slower", "n/a"

// The band as factors of the headline busbw: low = time / max(p95, time), high = time /
// min(min, time), so low <= 1 <= high.
struct Spread {
  double low = 1;
  double high = 1;
};
Spread spread_of(const Measurement& m);

struct ComparedSide {
  double busbw_gbps = 0;
  double band_low_gbps = 0;
  double band_high_gbps = 0;
  double time_us = 0;
  std::uint64_t wrong = 0;
  Spread spread;
};

struct ComparedPoint {
  SeriesKey key;
  std::uint64_t size_bytes = 0;
  ComparedSide base;
  ComparedSide current;
  // busbw(NEW)/busbw(BASE); from the times when a busbw is 0 (one rank); nullopt when neither works.
  std::optional<double> ratio;
  Verdict verdict = Verdict::kUnknown;
  bool within_noise = false;  // beyond the threshold, but the bands overlap
};

// A (series, size) present on one side only, or skipped on a side.
struct UnmatchedPoint {
  GroupKey group;
  std::optional<Placement> placement;  // nullopt for a skipped size (it covers both placements)
  std::uint64_t size_bytes = 0;
  std::string base;  // "measured", "missing" or "skipped: <reason>"
  std::string current;
};

struct ContextDifference {
  std::string field;
  std::string base;
  std::string current;
};

enum class Side { kBase, kNew };
std::string_view to_string(Side side);  // "BASE", "NEW"

// Something about a whole run that the reader must know: wrong data, an unfinished run.
struct RunFlag {
  Side side = Side::kBase;
  std::string message;
};

struct VerdictCounts {
  std::size_t faster = 0;
  std::size_t same = 0;
  std::size_t slower = 0;
  std::size_t unknown = 0;
  std::size_t within_noise = 0;
};

struct Comparison {
  std::string base_label;
  std::string new_label;
  CompareOptions options;
  std::vector<ComparedPoint> points;
  std::vector<UnmatchedPoint> unmatched;
  std::size_t outside_size_range = 0;  // points left out by min_size/max_size
  std::vector<ContextDifference> differences;
  std::vector<RunFlag> flags;
  // The setup fields that differ (ranks, hosts, devices, backend, memory): a verdict then
  // compares two different systems, which the reader must know.
  std::vector<std::string> setup_differences;
  std::vector<SeriesFigures> base_figures;
  std::vector<SeriesFigures> new_figures;
  VerdictCounts counts;

  bool regressed() const { return counts.slower > 0; }
};

Verdict judge(const ComparedSide& base, const ComparedSide& current, std::optional<double> ratio, double threshold,
              bool* within_noise);

Comparison compare_runs(const ReportRun& base, const ReportRun& current, const CompareOptions& options);

// Fields of the two contexts that differ (versions, ranks, hosts, devices, settings, env).
std::vector<ContextDifference> context_differences(const RunContext& base, const RunContext& current);

// Flags for a run that is not a clean, finished one; empty for status "ok" with no wrong data.
std::vector<std::string> run_problems(const RunDocument& document);

}  // namespace collbench::report
