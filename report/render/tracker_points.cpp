#include "report/render/tracker_points.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "report/analysis/series.hpp"

namespace collbench::report {
namespace {

bool usable(const Measurement& m) {
  return m.wrong == 0 && std::isfinite(m.time_us) && m.time_us > 0 && std::isfinite(m.algbw_gbps) &&
         std::isfinite(m.busbw_gbps);
}

// The run without what a tracker must not see, so that the median cycle is chosen among
// usable measurements only.
RunDocument usable_only(const RunDocument& document) {
  RunDocument kept{document.context, {}, document.summary};
  for (const auto& row : document.rows) {
    if (row.skipped) continue;
    SizeRecord copy = row;
    std::erase_if(copy.placements, [](const Measurement& m) { return !usable(m); });
    if (!copy.placements.empty()) kept.rows.push_back(std::move(copy));
  }
  return kept;
}

bool positive_finite(double v) { return std::isfinite(v) && v > 0; }

// Statistics exist only where iterations were timed one by one (record.hpp, TimeStats).
std::optional<TrackerBand> band_of(const Measurement& m) {
  const TimeStats& s = m.per_iteration;
  if (s.samples < 2 || !positive_finite(s.min_us) || !positive_finite(s.p95_us)) return std::nullopt;
  const double fastest_us = std::min(s.min_us, m.time_us);
  const double slow_us = std::max(s.p95_us, m.time_us);
  // Bandwidths are inversely proportional to the time at a fixed size.
  const double slow = m.time_us / slow_us;
  const double fast = m.time_us / fastest_us;
  return TrackerBand{.busbw_low_gbps = m.busbw_gbps * slow,
                     .busbw_high_gbps = m.busbw_gbps * fast,
                     .algbw_low_gbps = m.algbw_gbps * slow,
                     .algbw_high_gbps = m.algbw_gbps * fast,
                     .time_low_us = fastest_us,
                     .time_high_us = slow_us};
}

std::string ranks_words(int nranks) { return std::to_string(nranks) + (nranks == 1 ? " rank" : " ranks"); }

}  // namespace

std::string exact_size_label(std::uint64_t bytes) {
  static constexpr std::array<std::pair<unsigned, const char*>, 5> kUnits = {
      {{50, "P"}, {40, "T"}, {30, "G"}, {20, "M"}, {10, "K"}}};
  for (const auto& [shift, suffix] : kUnits) {
    const std::uint64_t unit = std::uint64_t{1} << shift;
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + suffix;
  }
  return std::to_string(bytes);
}

std::vector<TrackerPoint> tracker_points(const RunDocument& document) {
  std::vector<TrackerPoint> points;
  const std::string ranks = ranks_words(document.context.nranks);
  for (const auto& series : extract_series(usable_only(document)).series) {
    const std::string prefix = describe(series.key) + " ";
    for (const auto& p : series.points) {
      points.push_back({prefix + exact_size_label(p.size_bytes) + " " + ranks, p.size_bytes, p.m, band_of(p.m)});
    }
  }
  return points;
}

}  // namespace collbench::report
