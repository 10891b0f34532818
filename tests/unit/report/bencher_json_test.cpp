// `report --format bencher`: Bencher Metric Format JSON as Bencher documents it
// (bencher.dev/docs/reference/bencher-metric-format and its schema bencher.dev/bmf.json, read at
// bencherdev/bencher 8d75325c): an object of benchmarks, each an object of measures, each
// {"value": number, "lower_value"?: number, "upper_value"?: number}.
#include "report/render/bencher_json.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "report/documents/json_internal.hpp"
#include "report_test_data.hpp"

namespace collbench::report {
namespace {

using testing::load_fixture;
using testing::sample_document;

const std::set<std::string> kMeasures = {"busbw", "algbw", "latency"};

// bmf.json: every measure holds a number "value", optionally "lower_value" and "upper_value".
void expect_bmf(const Json& j) {
  ASSERT_TRUE(j.is_object());
  for (const auto& [name, benchmark] : j.items()) {
    ASSERT_TRUE(benchmark.is_object()) << name;
    std::set<std::string> measures;
    for (const auto& [measure, metric] : benchmark.items()) {
      measures.insert(measure);
      ASSERT_TRUE(metric.is_object()) << name << " " << measure;
      ASSERT_TRUE(metric.contains("value")) << name << " " << measure;
      for (const auto& [key, value] : metric.items()) {
        EXPECT_TRUE(key == "value" || key == "lower_value" || key == "upper_value") << key;
        EXPECT_TRUE(value.is_number()) << name << " " << measure << " " << key;
      }
      EXPECT_EQ(metric.contains("lower_value"), metric.contains("upper_value")) << name << " " << measure;
      if (metric.contains("lower_value")) {
        EXPECT_LE(metric["lower_value"].get<double>(), metric["value"].get<double>()) << name << " " << measure;
        EXPECT_GE(metric["upper_value"].get<double>(), metric["value"].get<double>()) << name << " " << measure;
      }
    }
    EXPECT_EQ(measures, kMeasures) << name;
  }
}

TEST(BencherJson, IsBencherMetricFormat) {
  const std::string text = bencher_json_text(sample_document());
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const Json j = Json::parse(text);
  expect_bmf(j);
  EXPECT_EQ(j.size(), 7u);  // 6 all_reduce points and all_gather's in-place one
  expect_bmf(Json::parse(bencher_json_text(load_fixture("base.json").document)));
}

// busbw and algbw in GB/s as measured; latency is Bencher's built-in measure in nanoseconds.
TEST(BencherJson, ValuesUnitsAndBands) {
  const Json j = Json::parse(bencher_json_text(sample_document()));
  const Json& p = j.at("all_reduce float sum out-of-place 1M 2 ranks");
  EXPECT_DOUBLE_EQ(p.at("busbw").at("value").get<double>(), 51.52);
  EXPECT_DOUBLE_EQ(p.at("busbw").at("lower_value").get<double>(), 51.52 / 1.2);
  EXPECT_DOUBLE_EQ(p.at("busbw").at("upper_value").get<double>(), 51.52 / 0.9);
  EXPECT_DOUBLE_EQ(p.at("algbw").at("value").get<double>(), 29.44);
  EXPECT_DOUBLE_EQ(p.at("algbw").at("lower_value").get<double>(), 29.44 / 1.2);
  EXPECT_DOUBLE_EQ(p.at("algbw").at("upper_value").get<double>(), 29.44 / 0.9);
  EXPECT_DOUBLE_EQ(p.at("latency").at("value").get<double>(), 35620.0);
  EXPECT_DOUBLE_EQ(p.at("latency").at("lower_value").get<double>(), 35620.0 * 0.9);
  EXPECT_DOUBLE_EQ(p.at("latency").at("upper_value").get<double>(), 35620.0 * 1.2);
  EXPECT_DOUBLE_EQ(j.at("all_reduce float sum in-place 8G 2 ranks").at("latency").at("value").get<double>(), 31180.2e3);
}

// 11.9117 us times 1000 is 11911.699999999999 in binary floating point; the picosecond
// rounding writes what the run measured.
TEST(BencherJson, NanosecondsAreRoundedToThePicosecond) {
  const std::string text = bencher_json_text(load_fixture("base.json").document);
  const Json j = Json::parse(text);
  EXPECT_EQ(j.at("all_reduce float sum out-of-place 1K 8 ranks").at("latency").at("value").get<double>(), 11911.7);
  EXPECT_NE(text.find("\"value\": 11911.7,"), std::string::npos);
  for (const auto& [name, benchmark] : j.items()) {
    for (const auto& [key, ns] : benchmark.at("latency").items()) {
      const std::string written = ns.dump();  // the shortest text that reads back the same
      const auto dot = written.find('.');
      if (dot != std::string::npos && written.find('e') == std::string::npos) {
        EXPECT_LE(written.size() - dot - 1, 3u) << name << " " << key << ": " << written;
      }
    }
  }
}

TEST(BencherJson, WrongSkippedAndUnmeasuredPointsAreLeftOut) {
  const Json j = Json::parse(bencher_json_text(sample_document()));
  EXPECT_FALSE(j.contains("all_gather float out-of-place 4M 2 ranks")) << "3 wrong elements";
  EXPECT_FALSE(j.contains("all_reduce float sum out-of-place 16G 2 ranks")) << "skipped";
  EXPECT_FALSE(j.contains("all_reduce float sum in-place 16G 2 ranks")) << "skipped";
  EXPECT_TRUE(j.contains("all_gather float in-place 4M 2 ranks")) << "unchecked is kept";
}

TEST(BencherJson, WithoutStatisticsAMetricIsItsValueAlone) {
  RunDocument d = sample_document();
  for (auto& row : d.rows) {
    for (auto& m : row.placements) m.per_iteration = TimeStats{};
  }
  const Json j = Json::parse(bencher_json_text(d));
  expect_bmf(j);
  for (const auto& measure : kMeasures) {
    const Json& metric = j.at("all_reduce float sum out-of-place 1M 2 ranks").at(measure);
    EXPECT_EQ(metric.size(), 1u) << measure << ": " << metric.dump();
  }
}

TEST(BencherJson, ARunWithNothingUsableIsAnEmptyObject) {
  RunDocument d = sample_document();
  for (auto& row : d.rows) {
    for (auto& m : row.placements) m.wrong = 1;
  }
  EXPECT_EQ(bencher_json_text(d), "{}\n");
}

}  // namespace
}  // namespace collbench::report
