#include "report/analysis/summary_figures.hpp"

#include <cmath>

#include "report/format/number_format.hpp"
#include "report/format/size_label.hpp"

namespace collbench::report {
namespace {

ReferenceValue reference_value(const std::vector<SeriesPoint>& points, std::uint64_t size) {
  ReferenceValue v{size, std::nullopt, false};
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].size_bytes == size) {
      v.busbw_gbps = points[i].m.busbw_gbps;
      return v;
    }
    if (i == 0 || points[i].size_bytes < size || points[i - 1].size_bytes > size) continue;
    // points[i-1] < size < points[i]
    const double x0 = std::log2(static_cast<double>(points[i - 1].size_bytes));
    const double x1 = std::log2(static_cast<double>(points[i].size_bytes));
    const double t = (std::log2(static_cast<double>(size)) - x0) / (x1 - x0);
    v.busbw_gbps = points[i - 1].m.busbw_gbps + t * (points[i].m.busbw_gbps - points[i - 1].m.busbw_gbps);
    v.interpolated = true;
    return v;
  }
  return v;
}

bool usable(double v) { return std::isfinite(v); }

}  // namespace

SeriesFigures figures_of(const Series& series, const FigureOptions& options) {
  SeriesFigures f;
  f.key = series.key;
  f.sizes = series.points.size();
  double sum = 0;
  for (const auto& p : series.points) {
    if (!usable(p.m.busbw_gbps)) continue;
    sum += p.m.busbw_gbps;
    if (p.m.busbw_gbps > f.peak_busbw_gbps) {
      f.peak_busbw_gbps = p.m.busbw_gbps;
      f.peak_size_bytes = p.size_bytes;
    }
  }
  if (!series.points.empty()) {
    f.mean_busbw_gbps = sum / static_cast<double>(series.points.size());
    f.smallest_size_bytes = series.points.front().size_bytes;
    f.smallest_time_us = series.points.front().m.time_us;
  }
  for (std::size_t i = 0; i < kReferenceSizes.size(); ++i) {
    f.at_reference[i] = reference_value(series.points, kReferenceSizes[i]);
  }
  if (f.peak_busbw_gbps > 0) {
    for (const auto& p : series.points) {
      if (usable(p.m.busbw_gbps) && p.m.busbw_gbps >= f.peak_busbw_gbps / 2) {
        f.half_peak_size_bytes = p.size_bytes;
        break;
      }
    }
  }
  if (options.bottleneck_link_gbps && *options.bottleneck_link_gbps > 0) {
    f.percent_of_link = 100.0 * f.peak_busbw_gbps / *options.bottleneck_link_gbps;
  }
  return f;
}

std::vector<SeriesFigures> summary_figures(const RunDocument& document, const FigureOptions& options) {
  std::vector<SeriesFigures> out;
  for (const auto& s : extract_series(document).series) {
    if (!s.points.empty()) out.push_back(figures_of(s, options));
  }
  return out;
}

bool any_percent_of_link(const std::vector<SeriesFigures>& figures) {
  for (const auto& f : figures) {
    if (f.percent_of_link) return true;
  }
  return false;
}

std::optional<double> busbw_at_reference(const SeriesFigures& figures, std::uint64_t size) {
  for (const auto& v : figures.at_reference) {
    if (v.size_bytes == size) return v.busbw_gbps;
  }
  return std::nullopt;
}

std::string reference_cell(const ReferenceValue& value) {
  if (!value.busbw_gbps) return "-";
  return (value.interpolated ? "~" : "") + format_fixed(*value.busbw_gbps, 2);
}

std::vector<std::string> figures_header(bool with_link) {
  std::vector<std::string> h = {"series", "peak GB/s", "at"};
  for (auto size : kReferenceSizes) h.push_back("@" + short_size(size));
  h.insert(h.end(), {"half peak at", "latency", "avg (nccl-tests)"});
  if (with_link) h.emplace_back("% of link");
  return h;
}

std::vector<std::string> figures_cells(const SeriesFigures& f, bool with_link) {
  std::vector<std::string> c = {describe(f.key), format_fixed(f.peak_busbw_gbps, 2), short_size(f.peak_size_bytes)};
  for (const auto& v : f.at_reference) c.push_back(reference_cell(v));
  c.push_back(f.half_peak_size_bytes ? short_size(*f.half_peak_size_bytes) : "-");
  c.push_back(format_fixed(f.smallest_time_us, 2) + " us @" + short_size(f.smallest_size_bytes));
  c.push_back(format_fixed(f.mean_busbw_gbps, 2));
  if (with_link) c.push_back(f.percent_of_link ? format_fixed(*f.percent_of_link, 1) + "%" : "-");
  return c;
}

}  // namespace collbench::report
