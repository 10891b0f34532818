#include "report/analysis/series.hpp"

#include <algorithm>
#include <map>

namespace collbench::report {
namespace {

GroupKey group_of(const SizeRecord& row) { return {row.collective, row.dtype, row.op, row.root}; }

SeriesPoint median_by_busbw(std::vector<SeriesPoint> candidates) {
  std::sort(candidates.begin(), candidates.end(),
            [](const SeriesPoint& a, const SeriesPoint& b) { return a.m.busbw_gbps < b.m.busbw_gbps; });
  return candidates[(candidates.size() - 1) / 2];
}

}  // namespace

std::string placement_words(Placement placement) {
  return placement == Placement::kInPlace ? "in-place" : "out-of-place";
}

std::string describe(const GroupKey& key) {
  std::string text = key.collective + " " + key.dtype;
  if (key.op != "none") text += " " + key.op;
  if (key.root >= 0) text += " root " + std::to_string(key.root);
  return text;
}

std::string describe(const SeriesKey& key) { return describe(key.group) + " " + placement_words(key.placement); }

RunSeries extract_series(const RunDocument& document) {
  std::vector<SeriesKey> order;
  std::map<SeriesKey, std::map<std::uint64_t, std::vector<SeriesPoint>>> by_key;
  RunSeries out;
  for (const auto& row : document.rows) {
    if (row.skipped) {
      out.skipped.push_back({group_of(row), row.size_bytes, *row.skipped});
      continue;
    }
    for (const auto& m : row.placements) {
      const SeriesKey key{group_of(row), m.placement};
      auto [it, inserted] = by_key.try_emplace(key);
      if (inserted) order.push_back(key);
      it->second[row.size_bytes].push_back({row.size_bytes, m});
    }
  }
  for (const auto& key : order) {
    Series s{key, {}};
    for (auto& [size, points] : by_key[key]) s.points.push_back(median_by_busbw(std::move(points)));
    out.series.push_back(std::move(s));
  }
  return out;
}

const Series* find_series(const RunSeries& run, const SeriesKey& key) {
  for (const auto& s : run.series) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

}  // namespace collbench::report
