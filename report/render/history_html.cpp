#include "report/render/history_html.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "common/strings.hpp"
#include "report/format/number_format.hpp"
#include "report/render/markup.hpp"
#include "report/render/svg_chart.hpp"

namespace collbench::report {
namespace {

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1800px; }
h1 { font-size: 22px; margin-bottom: 4px; }
h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ccc; padding-bottom: 4px; }
.grid { display: flex; flex-wrap: wrap; gap: 12px; }
figure { margin: 0; border: 1px solid #ddd; padding: 6px; }
figure.regressed { border: 2px solid #c0392b; }
figcaption { font-size: 12px; max-width: 420px; }
.flag { color: #c0392b; font-weight: bold; }
.note { color: #555; font-size: 13px; }
svg text { font-size: 10px; fill: #444; }
)";

// The chart's geometry: plot area inside fixed margins.
struct Frame {
  double width = 420;
  double height = 200;
  double left = 48;
  double right = 10;
  double top = 22;
  double bottom = 26;
  std::size_t n = 1;
  double y_max = 1;
  double x(double index) const {
    const double span = n > 1 ? static_cast<double>(n - 1) : 1.0;
    return left + (width - left - right) * index / span;
  }
  double y(double value) const { return top + (height - top - bottom) * (1 - value / y_max); }
};

std::string num(double v) { return format_fixed(v, 1); }

// GB/s with three or four significant digits, as the text table prints them.
std::string gbps(double v) { return format_fixed(v, v < 10 ? 3 : (v < 100 ? 2 : 1)); }

// The smallest of 1, 2, 2.5 and 5 times a power of ten at or above v: round axis ticks.
double nice_ceiling(double v) {
  const double step = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0}) {
    if (m * step >= v) return m * step;
  }
  return 10 * step;
}

std::string line(double x1, double y1, double x2, double y2, const std::string& attributes) {
  return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\" " +
         attributes + "/>";
}

std::string text(double x, double y, const std::string& anchor, const std::string& attributes,
                 const std::string& content) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\" " + attributes + ">" +
         xml_escape(content) + "</text>";
}

std::string axes(const History& h, const HistorySeries& s, const Frame& f) {
  std::string out;
  for (int k = 0; k <= 4; ++k) {
    const double v = f.y_max * k / 4;
    out += line(f.left, f.y(v), f.width - f.right, f.y(v), "stroke=\"#e4e4e4\"");
    out += text(f.left - 4, f.y(v) + 3, "end", "", format_general(v));
  }
  out += text(f.left, f.height - 8, "start", "", h.runs[s.points.front().run].time.substr(0, 10));
  out += text(f.width - f.right, f.height - 8, "end", "", h.runs[s.points.back().run].time.substr(0, 10));
  out += text(f.left - 40, 12, "start", "", "busbw GB/s");
  return out;
}

std::string segments(const HistorySeries& s, const std::vector<double>& values, const Frame& f) {
  std::string out;
  std::size_t first = 0;
  for (std::size_t k = 0; k <= s.change_points.size(); ++k) {
    const std::size_t end = k < s.change_points.size() ? s.change_points[k].index : values.size();
    const double m = median_of(values, first, end);
    out += line(f.x(static_cast<double>(first)), f.y(m), f.x(static_cast<double>(end - 1)), f.y(m),
                "class=\"segment\" stroke=\"#999\" stroke-width=\"2\" opacity=\"0.6\"");
    first = end;
  }
  return out;
}

std::string points_path(const History& h, const HistorySeries& s, const Frame& f, const std::string& color) {
  std::string pts;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    pts += (i == 0 ? "" : " ") + num(f.x(static_cast<double>(i))) + "," + num(f.y(s.points[i].busbw_gbps));
  }
  std::string out = "<polyline class=\"series\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"1.5\" points=\"" +
                    pts + "\"/>";
  if (s.points.size() > 300) return out;  // dots (and their tooltips) only where they stay apart
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const HistoryRun& run = h.runs[s.points[i].run];
    out += "<circle cx=\"" + num(f.x(static_cast<double>(i))) + "\" cy=\"" + num(f.y(s.points[i].busbw_gbps)) +
           "\" r=\"2\" fill=\"" + color + "\"><title>" +
           xml_escape(run.time + " " + run.path + ": " + format_general(s.points[i].busbw_gbps) + " GB/s") +
           "</title></circle>";
  }
  return out;
}

std::string change_marks(const HistorySeries& s, const Frame& f) {
  std::string out;
  for (const auto& c : s.change_points) {
    const double x = f.x(static_cast<double>(c.index) - 0.5);
    out += "<g class=\"change-point\">" +
           line(x, f.top, x, f.height - f.bottom, "stroke=\"#c0392b\" stroke-width=\"1.5\" stroke-dasharray=\"4,3\"") +
           text(x + 2, f.top - 4, "start", "fill=\"#c0392b\"", signed_percent(c.change_percent)) + "<title>" +
           xml_escape("change point: " + gbps(c.before_gbps) + " -> " + gbps(c.after_gbps) +
                      " GB/s, p = " + format_fixed(c.p_value, 3)) +
           "</title></g>";
  }
  return out;
}

std::string context_marks(const History& h, const HistorySeries& s, const Frame& f) {
  std::string out;
  for (std::size_t i = 1; i < s.points.size(); ++i) {
    const auto changes = context_changes_at(h, s, i);
    if (changes.empty()) continue;
    std::vector<std::string> fields;
    std::string detail;
    for (const ContextChange* c : changes) {
      for (const auto& d : c->differences) {
        if (std::find(fields.begin(), fields.end(), d.field) == fields.end()) fields.push_back(d.field);
        detail += d.field + ": " + d.base + " -> " + d.current + "\n";
      }
    }
    const double x = f.x(static_cast<double>(i) - 0.5);
    const double yb = f.height - f.bottom;
    out += "<g class=\"context-change\">" +
           line(x, f.top, x, yb, "stroke=\"#555\" stroke-width=\"1\" stroke-dasharray=\"1,2\"") + "<path d=\"M" +
           num(x) + " " + num(yb - 5) + " l4 4 l-4 4 l-4 -4 z\" fill=\"#555\"/>" +
           text(x + 3, yb - 8, "start", "fill=\"#555\"", join(fields, ", ").substr(0, 40)) + "<title>" +
           xml_escape(detail) + "</title></g>";
  }
  return out;
}

std::string chart(const History& h, const HistorySeries& s, int color) {
  Frame f;
  f.n = s.points.size();
  std::vector<double> values;
  for (const auto& p : s.points) values.push_back(p.busbw_gbps);
  const double top = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
  f.y_max = top > 0 ? nice_ceiling(top * 1.1) : 1;
  const auto& palette = chart_palette();
  const std::string& colour = palette[static_cast<std::size_t>(color) % palette.size()];
  std::string out = "<svg width=\"" + num(f.width) + "\" height=\"" + num(f.height) + "\" viewBox=\"0 0 " +
                    num(f.width) + " " + num(f.height) + "\" role=\"img\"><title>" + xml_escape(describe(s.key)) +
                    "</title>";
  if (!s.points.empty()) {
    out += axes(h, s, f) + segments(s, values, f) + points_path(h, s, f, colour) + change_marks(s, f) +
           context_marks(h, s, f);
  }
  return out + "</svg>";
}

std::string caption(const HistorySeries& s) {
  std::string out = xml_escape(describe(s.key)) + "<br/>" + format_uint(s.points.size()) + " runs, " +
                    format_uint(s.change_points.size()) +
                    (s.change_points.size() == 1 ? " change point" : " change points");
  const NewestVerdict& v = s.verdict;
  if (v.judged) {
    out += "; newest " + gbps(v.newest_gbps) + " GB/s, " + xml_escape(signed_percent(v.change_percent)) + " against " +
           gbps(v.baseline_median_gbps) + " &#177; " + gbps(v.noise_gbps);
  }
  if (v.regressed) out += " <span class=\"flag\">REGRESSED</span>";
  return out;
}

}  // namespace

std::string history_html(const History& h, const HistoryInputCounts& counts, const std::string& generator) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  out += "<title>collbench history</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  out += "<h1>collbench history</h1>\n<p class=\"note\">" + format_uint(h.runs.size()) + " runs (" +
         format_uint(counts.files) + " files, " + format_uint(counts.skipped) + " not run documents), " +
         format_uint(h.series.size()) + " series, " + format_uint(h.regressed_count()) +
         " regressed. Red dashed lines: change points (E-Divisive means); grey dotted lines with a diamond: "
         "context changes; grey bars: segment medians.</p>\n";
  std::map<std::string, std::vector<const HistorySeries*>> by_collective;
  for (const auto& s : h.series) by_collective[s.key.collective].push_back(&s);
  int color = 0;
  for (const auto& [collective, list] : by_collective) {
    out += "<h2>" + xml_escape(collective) + "</h2>\n<div class=\"grid\">\n";
    for (const HistorySeries* s : list) {
      out += std::string("<figure") + (s->verdict.regressed ? " class=\"regressed\"" : "") + ">" + chart(h, *s, color) +
             "<figcaption>" + caption(*s) + "<br/>" + xml_escape(s->key.fingerprint) + "</figcaption></figure>\n";
    }
    out += "</div>\n";
    ++color;
  }
  out += "<footer class=\"note\">Generated by " + xml_escape(generator.empty() ? std::string("collbench") : generator) +
         ". Busbw in decimal GB/s, as nccl-tests.</footer>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace collbench::report
