// A history of many runs (`collbench history`): points grouped into series by system and key,
// ordered by start time, change points found by E-Divisive Means (change_points.hpp), context
// changes between consecutive runs, and the CI rule that judges the newest run (docs/history.md).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "report/analysis/change_points.hpp"
#include "report/analysis/compare.hpp"
#include "report/documents/run_digest.hpp"

namespace collbench::report {

struct HistoryOptions {
  ChangePointOptions change_points;
  // The newest run regressed when it is below its baseline's median by more than
  // max(noise_mads x 1.4826 x MAD, noise_floor x median): 1.4826 x MAD estimates a normal
  // standard deviation robustly, 3 of them keep false alarms rare.
  double noise_mads = 3.0;
  double noise_floor = 0.01;
  // A baseline needs this many runs; a shorter last segment gives way to the one before it.
  std::size_t min_baseline = 3;
};

// The hardware and scale of a run, so that runs on other nodes of the same kind stay one series:
// host count, devices by model ("2 hosts, 16x NVIDIA H100 80GB HBM3"; "1 host, 2x cpu" on host
// memory). Which hosts they were is a context change, not another series.
std::string fingerprint_of(const RunContext& context);

struct HistoryKey {
  std::string fingerprint;
  std::string collective;
  std::string dtype;
  std::string op;
  int root = -1;
  std::uint64_t size_bytes = 0;
  Placement placement = Placement::kOutOfPlace;
  int ranks = 0;
  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads the defaulted comparison's implicit 0
  auto operator<=>(const HistoryKey&) const = default;
};
// "all_reduce float sum 1M out-of-place, 8 ranks" (op "none" and root -1 left out).
std::string describe(const HistoryKey& key);

struct HistoryRun {
  std::string path;
  std::string time;  // the run's start time (ISO 8601, UTC)
  std::string fingerprint;
};

struct HistoryPoint {
  std::size_t run = 0;  // index into History::runs
  double busbw_gbps = 0;
};

struct HistoryChangePoint {
  std::size_t index = 0;   // the point that starts the new segment
  double before_gbps = 0;  // median of the segment before
  double after_gbps = 0;   // median of the segment from index on
  double change_percent = 0;
  double p_value = 1;
};

// How the newest point compares with its baseline: the runs since the last change point before
// it (itself excluded), or the segment before when that has fewer than min_baseline runs.
struct NewestVerdict {
  bool judged = false;  // false: no baseline of min_baseline runs yet, or stale
  bool stale = false;   // the system's newest run has no point of this series: not judged
  double newest_gbps = 0;
  double baseline_median_gbps = 0;
  double noise_gbps = 0;           // the band's half-width
  std::size_t baseline_first = 0;  // point indices [first, end)
  std::size_t baseline_end = 0;
  double change_percent = 0;  // newest against the baseline's median
  bool regressed = false;     // newest < median - noise
};

struct HistorySeries {
  HistoryKey key;
  std::vector<HistoryPoint> points;  // in run order; at most one per run
  std::vector<HistoryChangePoint> change_points;
  NewestVerdict verdict;
};

// Consecutive runs of one system whose contexts differ.
struct ContextChange {
  std::string fingerprint;
  std::size_t run = 0;                         // the first run with the new context
  std::size_t previous_run = 0;                // the run before it, of the same system
  std::vector<ContextDifference> differences;  // field, base (before), current (after)
};

struct History {
  std::vector<HistoryRun> runs;                // by start time, then path
  std::vector<HistorySeries> series;           // by key
  std::vector<ContextChange> context_changes;  // by run
  std::size_t regressed_count() const;
};

// Points with wrong elements or without a finite busbw are left out; a key measured several
// times in one run (-N cycles) counts once, with its median.
History build_history(std::vector<RunDigest> runs, const HistoryOptions& options);

// What differs between two runs' contexts: compare's context differences (compare.hpp), the
// backend's library split into its parts ("NCCL 2.27.3 ...", "driver 13.0"), and the flags that
// change figures (-g, -m, -G, -R, buffers, precision target, run cycles).
std::vector<ContextDifference> history_context_differences(const RunContext& before, const RunContext& after);

// The rule of NewestVerdict over a series' values and its change points' indices (ascending).
NewestVerdict judge_newest(const std::vector<double>& values, const std::vector<std::size_t>& change_indices,
                           const HistoryOptions& options);

// The context changes of the series' system between its point index-1 (exclusive) and index
// (inclusive): what changed where the point's level may have changed.
std::vector<const ContextChange*> context_changes_at(const History& history, const HistorySeries& series,
                                                     std::size_t index);

// Median (the mean of the middle two for an even count) of values[first, end).
double median_of(const std::vector<double>& values, std::size_t first, std::size_t end);

}  // namespace collbench::report
