// Line charts over message size, drawn as SVG by collbench itself (no script, no font, no
// external reference): log2 size axis labelled 1K/1M/1G, linear or log10 y axis, one colour per
// series, solid lines with dots for out-of-place and dashed lines with squares for in-place.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collbench::report {

enum class YScale { kLinear, kLog10 };

struct ChartPoint {
  std::uint64_t size_bytes = 0;
  double y = 0;
};

struct ChartSeries {
  std::string label;    // legend text
  int color = 0;        // index into the palette (wraps around)
  bool dashed = false;  // in-place
  std::vector<ChartPoint> points;
};

struct ChartSpec {
  std::string title;
  std::string y_title;  // "bus bandwidth (GB/s)"
  std::string y_unit;   // for point tooltips: "GB/s", "us"
  YScale y_scale = YScale::kLinear;
  std::vector<ChartSeries> series;
  int width = 640;
  int plot_height = 300;
};

// `standalone`: an XML declaration and the SVG namespace, for a .svg file; otherwise an <svg>
// element to embed in HTML. The output is well-formed XML either way. A chart without points
// shows its axes and says "no data".
std::string render_svg_chart(const ChartSpec& spec, bool standalone);

// The palette, as "#rrggbb" (colour-blind safe, Okabe and Ito).
const std::vector<std::string>& chart_palette();

}  // namespace collbench::report
