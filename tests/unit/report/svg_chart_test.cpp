#include "report/render/svg_chart.hpp"

#include <gtest/gtest.h>

#include "report/render/run_charts.hpp"
#include "report_test_data.hpp"
#include "xml_check.hpp"

namespace collbench::report {
namespace {

using testing::load_fixture;
using testing::xml_error;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

ChartSpec two_series() {
  ChartSpec spec;
  spec.title = "Bus bandwidth";
  spec.y_title = "bus bandwidth (GB/s)";
  spec.y_unit = "GB/s";
  spec.series.push_back(
      {"a out-of-place", 0, false, {{1024, 1}, {std::uint64_t{1} << 20, 100}, {std::uint64_t{1} << 30, 400}}});
  spec.series.push_back(
      {"a in-place", 0, true, {{1024, 1}, {std::uint64_t{1} << 20, 90}, {std::uint64_t{1} << 30, 390}}});
  return spec;
}

TEST(XmlCheck, CatchesWhatIsNotWellFormed) {
  EXPECT_FALSE(xml_error("<a x=\"1\"><b/>text &amp; more</a>").has_value());
  EXPECT_TRUE(xml_error("<a><b></a></b>").has_value());
  EXPECT_TRUE(xml_error("<a x=1></a>").has_value());
  EXPECT_TRUE(xml_error("<a>AT&T</a>").has_value());
  EXPECT_TRUE(xml_error("<a x=\"1\" x=\"2\"/>").has_value());
  EXPECT_TRUE(xml_error("<a>").has_value());
  EXPECT_TRUE(xml_error("<a/><b/>").has_value());
  EXPECT_TRUE(xml_error("<a x=\"<\"/>").has_value());
}

TEST(SvgChart, StandaloneIsWellFormedXmlWithTheSvgNamespace) {
  const std::string svg = render_svg_chart(two_series(), true);
  EXPECT_FALSE(xml_error(svg).has_value()) << *xml_error(svg);
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
}

TEST(SvgChart, EmbeddedHasNoNamespaceAndNoUrl) {
  const std::string svg = render_svg_chart(two_series(), false);
  EXPECT_FALSE(xml_error(svg).has_value());
  EXPECT_EQ(svg.find("http"), std::string::npos);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
}

TEST(SvgChart, SizeAxisIsLog2WithBinaryLabels) {
  const std::string svg = render_svg_chart(two_series(), false);
  for (const char* label : {">1K</text>", ">1M</text>", ">1G</text>"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_NE(svg.find("message size (bytes, log2 scale)"), std::string::npos);
  EXPECT_NE(svg.find("bus bandwidth (GB/s)"), std::string::npos);
}

TEST(SvgChart, PlacementsAreDistinguishable) {
  const std::string svg = render_svg_chart(two_series(), false);
  // One dashed series line and one dashed legend line; dots for out-of-place, squares in-place.
  EXPECT_EQ(count(svg, "stroke-dasharray"), 2u);
  EXPECT_EQ(count(svg, "<circle"), 3u + 1u);
  EXPECT_EQ(count(svg, "<rect x=") - 2u, 3u + 1u);  // minus the background and the frame
  EXPECT_NE(svg.find(">a in-place</text>"), std::string::npos);
}

TEST(SvgChart, LogAxisForTimes) {
  ChartSpec spec = two_series();
  spec.y_scale = YScale::kLog10;
  spec.y_title = "time (us)";
  const std::string svg = render_svg_chart(spec, false);
  EXPECT_FALSE(xml_error(svg).has_value());
  EXPECT_NE(svg.find("time (us) (log scale)"), std::string::npos);
  for (const char* label : {">1</text>", ">10</text>", ">100</text>", ">1000</text>"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
}

TEST(SvgChart, TextIsEscaped) {
  ChartSpec spec = two_series();
  spec.title = "host <a&b> \"q\"";
  spec.series[0].label = "run <1>";
  const std::string svg = render_svg_chart(spec, true);
  EXPECT_FALSE(xml_error(svg).has_value()) << *xml_error(svg);
  EXPECT_NE(svg.find("host &lt;a&amp;b&gt; &quot;q&quot;"), std::string::npos);
}

TEST(SvgChart, EmptyChartSaysSo) {
  ChartSpec spec;
  spec.title = "nothing";
  const std::string svg = render_svg_chart(spec, true);
  EXPECT_FALSE(xml_error(svg).has_value());
  EXPECT_NE(svg.find(">no data</text>"), std::string::npos);
}

TEST(SvgChart, NonFiniteAndNonPositiveValuesAreLeftOutOfLogCharts) {
  ChartSpec spec = two_series();
  spec.y_scale = YScale::kLog10;
  spec.series[0].points[0].y = 0;
  spec.series[1].points[0].y = std::numeric_limits<double>::quiet_NaN();
  const std::string svg = render_svg_chart(spec, false);
  EXPECT_FALSE(xml_error(svg).has_value());
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  EXPECT_EQ(count(svg, "<circle"), 2u + 1u);
}

TEST(RunCharts, OneChartPairPerGroupAndOneColourPerRun) {
  const auto charts = run_charts({load_fixture("base.json"), load_fixture("mismatched.json")});
  ASSERT_EQ(charts.size(), 2u);  // all_reduce, all_gather
  EXPECT_EQ(describe(charts[0].group), "all_reduce float sum");
  ASSERT_EQ(charts[0].busbw.series.size(), 4u);
  EXPECT_EQ(charts[0].busbw.series[0].label, "base out-of-place");
  EXPECT_EQ(charts[0].busbw.series[0].color, 0);
  EXPECT_EQ(charts[0].busbw.series[2].color, 1);
  EXPECT_TRUE(charts[0].busbw.series[1].dashed);
  EXPECT_EQ(charts[0].busbw.y_scale, YScale::kLinear);
  EXPECT_EQ(charts[0].time.y_scale, YScale::kLog10);
  EXPECT_EQ(charts[1].busbw.series.size(), 2u);
}

}  // namespace
}  // namespace collbench::report
