#include "report/render/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "report/render/markup.hpp"
#include "report/format/number_format.hpp"
#include "report/format/size_label.hpp"

namespace collbench::report {
namespace {

constexpr double kLeft = 72;  // room for y labels and the y title
constexpr double kRight = 24;
constexpr double kTop = 36;     // the title
constexpr double kBottom = 52;  // x labels and the x title
constexpr double kLegendRow = 18;
constexpr std::size_t kLegendColumns = 2;
constexpr int kMaxXLabels = 8;

struct Range {
  double lo = 0;
  double hi = 1;
};

struct Frame {
  double left = 0;
  double top = 0;
  double width = 0;
  double height = 0;
};

std::string num(double v) { return format_fixed(v, 1); }

double x_of(std::uint64_t size) { return std::log2(static_cast<double>(std::max<std::uint64_t>(size, 1))); }

bool plottable(double y, YScale scale) { return std::isfinite(y) && (scale == YScale::kLinear || y > 0); }

Range x_range(const ChartSpec& spec) {
  double lo = std::numeric_limits<double>::max();
  double hi = std::numeric_limits<double>::lowest();
  for (const auto& s : spec.series) {
    for (const auto& p : s.points) {
      lo = std::min(lo, x_of(p.size_bytes));
      hi = std::max(hi, x_of(p.size_bytes));
    }
  }
  if (lo > hi) return {0, 30};
  if (lo == hi) return {std::max(lo - 1, 0.0), hi + 1};
  return {std::floor(lo), std::ceil(hi)};
}

// 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
double nice_step(double raw) {
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * decade >= raw) return m * decade;
  }
  return 10 * decade;
}

Range y_range(const ChartSpec& spec, double* step) {
  double lo = std::numeric_limits<double>::max();
  double hi = std::numeric_limits<double>::lowest();
  for (const auto& s : spec.series) {
    for (const auto& p : s.points) {
      if (!plottable(p.y, spec.y_scale)) continue;
      lo = std::min(lo, p.y);
      hi = std::max(hi, p.y);
    }
  }
  if (spec.y_scale == YScale::kLog10) {
    if (lo > hi) return {0, 1};
    const double a = std::floor(std::log10(lo));
    const double b = std::ceil(std::log10(hi));
    return {a, b > a ? b : a + 1};
  }
  if (lo > hi || hi <= 0) hi = 1;
  *step = nice_step(hi / 5);
  return {0, std::ceil(hi / *step) * *step};
}

double y_value(double y, YScale scale) { return scale == YScale::kLog10 ? std::log10(y) : y; }

double px(double v, const Range& r, double from, double length) { return from + (v - r.lo) / (r.hi - r.lo) * length; }

std::string text_at(double x, double y, const std::string& anchor, const std::string& content,
                    const std::string& extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\"" + extra + ">" +
         xml_escape(content) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& style) {
  return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\" " + style +
         "/>\n";
}

int x_label_step(const Range& r) {
  for (int step : {1, 2, 5, 10}) {
    if ((r.hi - r.lo) / step + 1 <= kMaxXLabels) return step;
  }
  return 10;
}

std::string x_axis(const Range& r, const Frame& f) {
  std::string out;
  const int step = x_label_step(r);
  const double bottom = f.top + f.height;
  for (auto e = static_cast<int>(r.lo); e <= static_cast<int>(r.hi); ++e) {
    const double x = px(e, r, f.left, f.width);
    const bool major = e % step == 0;
    out += line(x, bottom, x, bottom + (major ? 6 : 3), "stroke=\"#333\"");
    if (!major) continue;
    out += line(x, f.top, x, bottom, "stroke=\"#e4e4e4\"");
    out += text_at(x, bottom + 19, "middle", short_size(std::uint64_t{1} << e));
  }
  out += text_at(f.left + f.width / 2, bottom + 40, "middle", "message size (bytes, log2 scale)");
  return out;
}

// Whole numbers in full (a time axis reaches 100000 us), others with up to 6 digits.
std::string y_label(double v) {
  constexpr double kLargestInFull = 1e12;
  return v == std::floor(v) && v < kLargestInFull ? format_fixed(v, 0) : format_general(v);
}

std::string y_axis(const ChartSpec& spec, const Range& r, double step, const Frame& f) {
  std::string out;
  std::vector<double> ticks;
  if (spec.y_scale == YScale::kLog10) {
    // One tick per decade; the range ends are whole decades (y_range), counted as integers.
    const long decades = std::lround(r.hi - r.lo);
    for (long k = 0; k <= decades; ++k) ticks.push_back(r.lo + static_cast<double>(k));
  } else {
    for (int i = 0; i * step <= r.hi + step / 2; ++i) ticks.push_back(i * step);
  }
  for (double t : ticks) {
    const double y = f.top + f.height - px(t, r, 0, f.height);
    out += line(f.left - 5, y, f.left, y, "stroke=\"#333\"");
    out += line(f.left, y, f.left + f.width, y, "stroke=\"#e4e4e4\"");
    const double value = spec.y_scale == YScale::kLog10 ? std::pow(10.0, t) : t;
    out += text_at(f.left - 8, y + 4, "end", y_label(value));
  }
  const double cy = f.top + f.height / 2;
  out += text_at(16, cy, "middle", spec.y_title + (spec.y_scale == YScale::kLog10 ? " (log scale)" : ""),
                 " transform=\"rotate(-90 16 " + num(cy) + ")\"");
  return out;
}

std::string marker(double x, double y, const ChartSeries& s, const std::string& color, const std::string& tip) {
  const std::string title = "<title>" + xml_escape(tip) + "</title>";
  if (s.dashed) {
    return "<rect x=\"" + num(x - 3) + "\" y=\"" + num(y - 3) + "\" width=\"6\" height=\"6\" fill=\"" + color + "\">" +
           title + "</rect>\n";
  }
  return "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"3\" fill=\"" + color + "\">" + title + "</circle>\n";
}

std::string series_svg(const ChartSpec& spec, const ChartSeries& s, const Range& xr, const Range& yr, const Frame& f) {
  const std::string& color = chart_palette()[static_cast<std::size_t>(s.color) % chart_palette().size()];
  std::string path;
  std::string markers;
  for (const auto& p : s.points) {
    if (!plottable(p.y, spec.y_scale)) continue;
    const double x = px(x_of(p.size_bytes), xr, f.left, f.width);
    const double y = f.top + f.height - px(y_value(p.y, spec.y_scale), yr, 0, f.height);
    path += (path.empty() ? "M" : " L") + num(x) + " " + num(y);
    markers += marker(x, y, s, color,
                      s.label + ": " + size_text(p.size_bytes) + ", " + format_fixed(p.y, 2) + " " + spec.y_unit);
  }
  if (path.empty()) return "";
  const std::string dash = s.dashed ? " stroke-dasharray=\"7 4\"" : "";
  return "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" + dash + "/>\n" + markers;
}

std::string legend(const ChartSpec& spec, double top, int width) {
  std::string out;
  const double column_width = (width - kLeft - kRight) / static_cast<double>(kLegendColumns);
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    const ChartSeries& s = spec.series[i];
    const std::string& color = chart_palette()[static_cast<std::size_t>(s.color) % chart_palette().size()];
    const double x = kLeft + static_cast<double>(i % kLegendColumns) * column_width;
    const std::size_t row = i / kLegendColumns;
    const double y = top + static_cast<double>(row) * kLegendRow;
    const std::string dash = s.dashed ? " stroke-dasharray=\"7 4\"" : "";
    out += line(x, y, x + 28, y, "stroke=\"" + color + "\" stroke-width=\"2\"" + dash);
    out += marker(x + 14, y, s, color, s.label);
    out += text_at(x + 36, y + 4, "start", s.label);
  }
  return out;
}

bool has_points(const ChartSpec& spec) {
  for (const auto& s : spec.series) {
    for (const auto& p : s.points) {
      if (plottable(p.y, spec.y_scale)) return true;
    }
  }
  return false;
}

}  // namespace

const std::vector<std::string>& chart_palette() {
  static const std::vector<std::string> kPalette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                    "#E69F00", "#56B4E9", "#000000"};
  return kPalette;
}

std::string render_svg_chart(const ChartSpec& spec, bool standalone) {
  const Frame f{kLeft, kTop, spec.width - kLeft - kRight, static_cast<double>(spec.plot_height)};
  const auto legend_rows = (spec.series.size() + kLegendColumns - 1) / kLegendColumns;
  const double legend_top = kTop + f.height + kBottom + 8;
  const int height = static_cast<int>(legend_top + static_cast<double>(legend_rows) * kLegendRow + 8);
  const std::string w = std::to_string(spec.width);
  const std::string h = std::to_string(height);
  std::string out = standalone ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : "";
  out += "<svg" + std::string(standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "") + " width=\"" + w +
         "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h + "\" font-family=\"sans-serif\" font-size=\"12\"" +
         " role=\"img\" aria-label=\"" + xml_escape(spec.title) + "\">\n";
  out += "<rect x=\"0\" y=\"0\" width=\"" + w + "\" height=\"" + h + "\" fill=\"#ffffff\"/>\n";
  out += text_at(spec.width / 2.0, 22, "middle", spec.title, " font-size=\"14\" font-weight=\"bold\"");
  const Range xr = x_range(spec);
  double step = 1;
  const Range yr = y_range(spec, &step);
  out += x_axis(xr, f) + y_axis(spec, yr, step, f);
  out += "<rect x=\"" + num(f.left) + "\" y=\"" + num(f.top) + "\" width=\"" + num(f.width) + "\" height=\"" +
         num(f.height) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  if (!has_points(spec)) out += text_at(f.left + f.width / 2, f.top + f.height / 2, "middle", "no data");
  for (const auto& s : spec.series) out += series_svg(spec, s, xr, yr, f);
  out += legend(spec, legend_top, spec.width);
  out += "</svg>\n";
  return out;
}

}  // namespace collbench::report
