// A run seen as curves: for each (collective, dtype, op, root, placement), the measurements
// in ascending size. Compare, summary figures, charts and rankings all work on these.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "report/documents/run_json.hpp"

namespace collbench::report {

// What a chart or a table groups by: one collective with one dtype, op and root.
struct GroupKey {
  std::string collective;
  std::string dtype;
  std::string op;
  int root = -1;
  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads the defaulted comparison's implicit 0
  auto operator<=>(const GroupKey&) const = default;
};

struct SeriesKey {
  GroupKey group;
  Placement placement = Placement::kOutOfPlace;
  auto operator<=>(const SeriesKey&) const = default;  // NOLINT(modernize-use-nullptr): as in GroupKey
};

// "all_reduce float sum", "broadcast float root 0" (op "none" and root -1 are left out).
std::string describe(const GroupKey& key);
// describe(group) + " out-of-place" / " in-place".
std::string describe(const SeriesKey& key);
// "out-of-place" / "in-place".
std::string placement_words(Placement placement);

struct SeriesPoint {
  std::uint64_t size_bytes = 0;
  Measurement m;
};

struct Series {
  SeriesKey key;
  std::vector<SeriesPoint> points;  // ascending size, one per size
};

// A size that did not run (the record carries the reason).
struct SkippedPoint {
  GroupKey group;
  std::uint64_t size_bytes = 0;
  std::string reason;
};

struct RunSeries {
  std::vector<Series> series;  // in order of first appearance in the run
  std::vector<SkippedPoint> skipped;
};

// A size measured more than once (run cycles, -N) is represented by its measurement with the
// median busbw (the lower middle one for an even count), so one slow cycle moves nothing.
RunSeries extract_series(const RunDocument& document);

// The series with `key`, or nullptr.
const Series* find_series(const RunSeries& run, const SeriesKey& key);

}  // namespace collbench::report
