// `report --format github-action-benchmark[-time]`: the JSON that github-action-benchmark's
// customBiggerIsBetter and customSmallerIsBetter tools read (its README and src/extract.ts,
// BenchmarkResult, at v1.22.0 c38cce98): an array of {"name": string, "unit": string,
// "value": number, "range"?: string, "extra"?: string}.
#include "report/render/github_benchmark_json.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "report/documents/json_internal.hpp"
#include "report_test_data.hpp"

namespace collbench::report {
namespace {

using testing::load_fixture;
using testing::sample_document;

constexpr auto kBusbw = GithubBenchmarkQuantity::kBusbw;
constexpr auto kTime = GithubBenchmarkQuantity::kTime;

Json parsed(const RunDocument& d, GithubBenchmarkQuantity q) { return Json::parse(github_benchmark_json_text(d, q)); }

// extract.ts's BenchmarkResult, with the types collbench writes; names unique, as the action
// matches a result to the previous run's by name.
void expect_results(const Json& j, const std::string& unit) {
  ASSERT_TRUE(j.is_array());
  ASSERT_FALSE(j.empty()) << "the action fails on a file without results";
  std::set<std::string> names;
  for (const auto& e : j) {
    ASSERT_TRUE(e.is_object());
    for (const auto& [key, value] : e.items()) {
      EXPECT_TRUE(key == "name" || key == "unit" || key == "value" || key == "range" || key == "extra") << key;
    }
    ASSERT_TRUE(e.at("name").is_string());
    EXPECT_TRUE(names.insert(e.at("name").get<std::string>()).second) << "duplicate " << e.at("name");
    EXPECT_EQ(e.at("unit"), unit);
    EXPECT_TRUE(e.at("value").is_number()) << e.dump();
    if (e.contains("range")) {
      EXPECT_TRUE(e.at("range").is_string()) << e.dump();
    }
    EXPECT_TRUE(e.at("extra").is_string()) << e.dump();
  }
}

const Json& entry(const Json& j, const std::string& name) {
  for (const auto& e : j) {
    if (e.at("name") == name) return e;
  }
  ADD_FAILURE() << "no entry " << name;
  static const Json kNone = Json::object();
  return kNone;
}

TEST(GithubBenchmarkJson, IsAnArrayOfCustomBenchmarkResults) {
  for (const auto& document : {sample_document(), load_fixture("base.json").document}) {
    expect_results(parsed(document, kBusbw), "GB/s");
    expect_results(parsed(document, kTime), "us");
  }
  const std::string text = github_benchmark_json_text(sample_document(), kBusbw);
  EXPECT_EQ(text.rfind('[', 0), 0u);
  EXPECT_EQ(text.back(), '\n');
}

TEST(GithubBenchmarkJson, BusbwFileHoldsBusbwAndItsBand) {
  const Json j = parsed(sample_document(), kBusbw);
  ASSERT_EQ(j.size(), 7u);
  const Json& e = entry(j, "all_reduce float sum out-of-place 1M 2 ranks");
  EXPECT_DOUBLE_EQ(e.at("value").get<double>(), 51.52);
  EXPECT_EQ(e.at("range"), "42.9333 .. 57.2444");  // 51.52 / 1.2 .. 51.52 / 0.9
  EXPECT_DOUBLE_EQ(entry(j, "all_reduce float sum in-place 8G 2 ranks").at("value").get<double>(), 482.11);
}

TEST(GithubBenchmarkJson, TimeFileHoldsMicrosecondsAndTheirBand) {
  const Json j = parsed(sample_document(), kTime);
  ASSERT_EQ(j.size(), 7u);
  const Json& e = entry(j, "all_reduce float sum out-of-place 1M 2 ranks");
  EXPECT_DOUBLE_EQ(e.at("value").get<double>(), 35.62);
  EXPECT_EQ(e.at("range"), "32.058 .. 42.744");  // min .. p95
  EXPECT_DOUBLE_EQ(entry(j, "all_reduce float sum in-place 8G 2 ranks").at("value").get<double>(), 31180.2);
}

TEST(GithubBenchmarkJson, BothFilesNameTheSamePointsInTheSameOrder) {
  const Json busbw = parsed(sample_document(), kBusbw);
  const Json time = parsed(sample_document(), kTime);
  ASSERT_EQ(busbw.size(), time.size());
  for (std::size_t i = 0; i < busbw.size(); ++i) EXPECT_EQ(busbw[i].at("name"), time[i].at("name"));
  EXPECT_EQ(busbw.back().at("name"), "all_gather float in-place 4M 2 ranks");
}

TEST(GithubBenchmarkJson, ExtraCarriesThePointAndTheSetup) {
  const Json j = parsed(sample_document(), kBusbw);
  EXPECT_EQ(entry(j, "all_reduce float sum out-of-place 1M 2 ranks").at("extra"),
            "size 1048576 B, 20 iterations\n"
            "time 35.62 us, algbw 29.44 GB/s, busbw 51.52 GB/s\n"
            "2 ranks on node0001, device memory\n"
            "NCCL 2.21.5 (backend nccl, bootstrap mpi)\n"
            "collbench 0.1.0 dda0d65b1622, run 2024-05-01T12:00:00Z");
  const std::string unchecked = entry(j, "all_gather float in-place 4M 2 ranks").at("extra").get<std::string>();
  EXPECT_EQ(unchecked.rfind("size 4194304 B, 20 iterations, results not checked\n", 0), 0u) << unchecked;
}

TEST(GithubBenchmarkJson, ManyHostsAreNamedUpToFourAndCounted) {
  RunDocument d = sample_document();
  d.context.nranks = 12;
  d.context.hosts = {"a", "b", "c", "d", "e", "f"};
  const std::string extra = parsed(d, kTime).front().at("extra").get<std::string>();
  EXPECT_NE(extra.find("\n12 ranks on a, b, c, d, ... (6 hosts), device memory\n"), std::string::npos) << extra;
}

TEST(GithubBenchmarkJson, WithoutStatisticsThereIsNoRange) {
  RunDocument d = sample_document();
  for (auto& row : d.rows) {
    for (auto& m : row.placements) m.per_iteration = TimeStats{};
  }
  for (const auto& e : parsed(d, kBusbw)) EXPECT_FALSE(e.contains("range")) << e.dump();
  for (const auto& e : parsed(d, kTime)) EXPECT_FALSE(e.contains("range")) << e.dump();
}

TEST(GithubBenchmarkJson, WrongAndSkippedPointsAreLeftOut) {
  const Json j = parsed(sample_document(), kTime);
  for (const auto& e : j) {
    const std::string name = e.at("name").get<std::string>();
    EXPECT_NE(name, "all_gather float out-of-place 4M 2 ranks") << "3 wrong elements";
    EXPECT_EQ(name.find("16G"), std::string::npos) << "skipped";
  }
}

}  // namespace
}  // namespace collbench::report
