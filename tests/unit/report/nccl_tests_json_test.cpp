// nccl-tests' own JSON (report/render/nccl_tests_json.hpp) against the layout of nccl-tests
// 2.19.6's src/util.cu: its keys in its order, its quirks (booleans and NaN as strings, root
// as "%6i"), and -I 1's process rows. The integration test nccl_tests_json_test.sh runs
// upstream's own analysis script on real files.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

#include "report/analysis/process_iterations.hpp"
#include "report/render/nccl_tests_json.hpp"
#include "tests/unit/report/sample_run.hpp"

namespace collbench::report {
namespace {

using nlohmann::json;
using testing::sample_document;

// nlohmann sorts keys; upstream's order is read from the text.
std::vector<std::string> top_level_order(const std::string& text) {
  std::vector<std::string> keys;
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      if (depth == 1 && (text[i - 1] == '{' || text[i - 1] == ',')) {
        const auto end = text.find('"', i + 1);
        keys.push_back(text.substr(i + 1, end - i - 1));
      }
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return keys;
}

TEST(NcclTestsJson, TopLevelAsUpstreamWritesIt) {
  const std::string text = nccl_tests_json_text(sample_document());
  EXPECT_EQ(text.rfind("{\"version\":3,\"start_time\":\"2024-05-01 12:00:00\",\"args\":[\"collbench\",", 0), 0u)
      << text;
  EXPECT_EQ(text.back(), '}');  // one line, no final newline
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(top_level_order(text),
            (std::vector<std::string>{"version", "start_time", "args", "env", "nccl_version", "config", "results",
                                      "out_of_bounds", "average_bus_bandwidth", "errors", "end_time"}));
  const json doc = json::parse(text);
  EXPECT_EQ(doc.at("nccl_version"), 22105);
  EXPECT_EQ(doc.at("env").at(0), "NCCL_DEBUG=WARN");
  EXPECT_EQ(doc.at("end_time"), "2024-05-01 12:03:00");
  EXPECT_EQ(doc.at("errors"), json::array({""}));
  // one failing placement (all_gather out of place) among the measured ones
  EXPECT_EQ(doc.at("out_of_bounds"), json({{"count", 1}, {"okay", "false"}}));
  EXPECT_EQ(doc.at("average_bus_bandwidth").at("okay"), "unchecked");
}

TEST(NcclTestsJson, ConfigAndDevices) {
  const std::string text = nccl_tests_json_text(sample_document());
  EXPECT_NE(text.find("\"config\":{\"nthreads\":1,\"ngpus\":1,\"minimum_bytes\":8,\"maximum_bytes\":8589934592,"
                      "\"step_factor\":2,\"warmup_iters\":1,\"iterations\":20,\"aggregated_iterations\":1,"
                      "\"validation\":1,\"graph\":0,\"blocking_collectives\":\"false\",\"per_iter_timing\":\"false\","
                      "\"per_iter_skip\":0,\"parallel_init\":\"false\",\"devices\":["),
            std::string::npos)
      << text;
  const json devices = json::parse(text).at("config").at("devices");
  // two ranks, two processes: one entry each, as upstream's MPI gather gives
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices.at(1), json({{"rank", 1},
                                 {"group", 0},
                                 {"pid", 41235},
                                 {"hostname", "node0001"},
                                 {"device", 1},
                                 {"device_hex", "0000:2a:00"},
                                 {"device_info", "NVIDIA H100 80GB HBM3"}}));
  RunDocument threads = sample_document();
  threads.context.ranks[1].pid = threads.context.ranks[0].pid;  // -g 2: one process
  EXPECT_EQ(json::parse(nccl_tests_json_text(threads)).at("config").at("devices").size(), 1u);
}

TEST(NcclTestsJson, ResultRowsWithUpstreamQuirks) {
  const std::string text = nccl_tests_json_text(sample_document());
  EXPECT_NE(text.find("{\"size\":1048576,\"count\":262144,\"type\":\"float\",\"redop\":\"sum\",\"root\":\"    -1\","
                      "\"out_of_place\":{\"time\":35.620000,\"alg_bw\":29.440000,\"bus_bw\":51.520000,"
                      "\"nwrong\":0.000000},\"in_place\":{\"time\":34.900000,\"alg_bw\":30.050000,"
                      "\"bus_bw\":52.580000,\"nwrong\":0.000000},\"actual_iterations\":20,\"experiment_name\":\"\"}"),
            std::string::npos)
      << text;
  const json results = json::parse(text).at("results");
  ASSERT_EQ(results.size(), 4u);                                     // the skipped size has no entry
  EXPECT_TRUE(results.at(3).at("in_place").at("nwrong").is_null());  // -c 0 placement
  EXPECT_EQ(results.at(3).at("out_of_place").at("nwrong"), 3.0);
  EXPECT_FALSE(results.at(0).contains("out_of_place_per_iter"));  // without -I 1

  RunDocument nan = sample_document();
  nan.rows[0].placements[0].busbw_gbps = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(nccl_tests_json_text(nan).find("\"bus_bw\":\"nan\""), std::string::npos);
  nan.context.config.min_busbw_gbps = 1000;
  EXPECT_EQ(json::parse(nccl_tests_json_text(nan)).at("average_bus_bandwidth").at("okay"), "false");
}

TEST(NcclTestsJson, PerIterationBlocksFromEveryRanksSamples) {
  RunDocument d = sample_document();
  d.context.config.per_iteration_timing = true;
  d.context.config.per_iter_skip = 1;
  d.rows.resize(1);
  d.rows[0].placements[0].rank_iteration_us = {{10, 2, 3, 4}, {1, 5, 3, 2}};
  const json doc = json::parse(nccl_tests_json_text(d));
  const json oop = doc.at("results").at(0).at("out_of_place_per_iter");
  EXPECT_EQ(oop.at("skipped_iterations"), 1);
  EXPECT_EQ(oop.at("times_us"), json::array({10.0, 5.0, 3.0, 4.0}));
  EXPECT_EQ(oop.at("per_process_max_times_us"), json::parse("[[10.0,2.0,3.0,4.0],[1.0,5.0,3.0,2.0]]"));
  // statistics of 5, 3, 4 (the first iteration skipped): upstream's upper median, n divisor
  EXPECT_DOUBLE_EQ(oop.at("min_us").get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(oop.at("max_us").get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(oop.at("avg_us").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(oop.at("p50_us").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(oop.at("p99_us").get<double>(), 5.0);
  EXPECT_NEAR(oop.at("stdev_us").get<double>(), 0.816497, 1e-6);
  // a run document keeps only statistics: the block has them and no samples
  const json ip = doc.at("results").at(0).at("in_place_per_iter");
  EXPECT_EQ(ip.at("times_us"), json::array());
  EXPECT_FALSE(ip.contains("per_process_max_times_us"));
  EXPECT_DOUBLE_EQ(ip.at("avg_us").get<double>(), 12.05);
  EXPECT_NEAR(ip.at("cv_pct").get<double>(), 5.0, 1e-9);
}

TEST(NcclTestsJson, PerIterationKeysInUpstreamOrder) {
  RunDocument d = sample_document();
  d.context.config.per_iteration_timing = true;
  d.rows.resize(1);
  d.rows[0].placements[0].rank_iteration_us = {{1, 2}, {3, 4}};
  const std::string text = nccl_tests_json_text(d);
  EXPECT_NE(text.find(
                "\"root\":\"    -1\",\"out_of_place\":{\"time\":12.310000,\"alg_bw\":0.000000,\"bus_bw\":0.000000,"
                "\"nwrong\":0.000000},\"out_of_place_per_iter\":{\"skipped_iterations\":0,\"min_us\":3.000000,"
                "\"max_us\":4.000000,\"avg_us\":3.500000,\"p50_us\":4.000000,\"p95_us\":4.000000,"
                "\"p99_us\":4.000000,\"stdev_us\":0.500000,\"cv_pct\":14.285714,\"times_us\":[3.000000,4.000000],"
                "\"per_process_max_times_us\":[[1.000000,2.000000],[3.000000,4.000000]]},\"in_place\":{"),
            std::string::npos)
      << text;
}

TEST(NcclTestsJson, StringsAreSanitizedAsUpstreamDoes) {
  RunDocument d = sample_document();
  d.context.argv = {"a\"b/c\\d\te\nf", "stops\x01here", "caf\xc3\xa9"};
  const json doc = json::parse(nccl_tests_json_text(d));
  EXPECT_EQ(doc.at("args"), json::array({"a\"b/c\\d\te\nf", "stops", "caf"}));
}

TEST(NcclTestsJson, VersionCodes) {
  EXPECT_EQ(nccl_version_code("NCCL 2.21.5"), 22105);
  EXPECT_EQ(nccl_version_code("Open MPI v4.1.4"), 0);
}

TEST(ProcessIterations, RanksOfOneProcessFormOneRow) {
  std::vector<RankInfo> ranks(3);
  ranks[0].pid = 7;
  ranks[1].pid = 7;
  ranks[2].pid = 8;
  const ProcessIterations p = process_iterations(ranks, {{1, 9}, {4, 2}, {3, 3, 5}});
  EXPECT_EQ(p.process_max_us, (std::vector<std::vector<double>>{{4, 9}, {3, 3}}));
  EXPECT_EQ(p.max_us, (std::vector<double>{4, 9}));
  EXPECT_EQ(p.first_ranks, (std::vector<std::size_t>{0, 2}));
}

}  // namespace
}  // namespace collbench::report
