#include "report/render/run_charts.hpp"

#include <algorithm>

namespace collbench::report {
namespace {

ChartSeries chart_series(const std::string& label, int color, const Series& s, ChartMetric metric) {
  ChartSeries out{label, color, s.key.placement == Placement::kInPlace, {}};
  for (const auto& p : s.points) {
    out.points.push_back({p.size_bytes, metric == ChartMetric::kBusbw ? p.m.busbw_gbps : p.m.time_us});
  }
  return out;
}

GroupCharts empty_charts(const GroupKey& group) {
  GroupCharts c{group, {}, {}};
  c.busbw.title = "Bus bandwidth: " + describe(group);
  c.busbw.y_title = "bus bandwidth (GB/s)";
  c.busbw.y_unit = "GB/s";
  c.busbw.y_scale = YScale::kLinear;
  c.time.title = "Time per operation: " + describe(group);
  c.time.y_title = "time (us)";
  c.time.y_unit = "us";
  c.time.y_scale = YScale::kLog10;
  return c;
}

bool both_placements(const std::vector<RunSeries>& all) {
  for (const auto& run : all) {
    for (const auto& s : run.series) {
      if (s.key.placement == Placement::kInPlace) return true;
    }
  }
  return false;
}

}  // namespace

std::vector<GroupCharts> run_charts(const std::vector<ReportRun>& runs) {
  std::vector<RunSeries> all;
  all.reserve(runs.size());
  for (const auto& run : runs) all.push_back(extract_series(run.document));
  const bool placements = both_placements(all);
  std::vector<GroupCharts> charts;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    for (const auto& s : all[r].series) {
      auto it = std::find_if(charts.begin(), charts.end(),
                             [&](const GroupCharts& c) { return c.group == s.key.group; });
      if (it == charts.end()) it = charts.insert(charts.end(), empty_charts(s.key.group));
      const std::string label = runs[r].label + (placements ? " " + placement_words(s.key.placement) : "");
      const int color = static_cast<int>(r);
      it->busbw.series.push_back(chart_series(label, color, s, ChartMetric::kBusbw));
      it->time.series.push_back(chart_series(label, color, s, ChartMetric::kTime));
    }
  }
  return charts;
}

}  // namespace collbench::report
