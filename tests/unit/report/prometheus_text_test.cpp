// The Prometheus text of a run (render/prometheus_text.hpp): exact text for a small run,
// label escaping, one series per label set however many cycles repeat a size.
#include "report/render/prometheus_text.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <sstream>
#include <string>

#include "sample_run.hpp"

namespace collbench::report {
namespace {

using testing::measured;
using testing::sample_context;
using testing::sized;

RunDocument small_run() {
  RunDocument d{sample_context(), {}, {}};
  d.context.hosts = {"node0001", "node0002"};
  SizeRecord r = sized("all_reduce", "sum", 8, 2);
  Measurement in_place = measured(Placement::kInPlace, 10, 0.8, 1.6);
  in_place.checked = false;
  r.placements = {measured(Placement::kOutOfPlace, 12.5, 0.5, 1), in_place};
  d.rows.push_back(r);
  d.summary = summarize(d.rows);
  d.summary.status = RunStatus::kOk;
  d.summary.end_time = "2024-05-01T12:03:00Z";
  return d;
}

TEST(PrometheusText, SmallRunExactly) {
  const std::string labels =
      "host=\"node0001\",collective=\"all_reduce\",dtype=\"float\",op=\"sum\",root=\"\",size_bytes=\"8\"";
  const std::string expected =
      "# HELP collbench_busbw_gbytes_per_second Bus bandwidth (nccl-tests' busbw) in GB/s (1e9 bytes per second).\n"
      "# TYPE collbench_busbw_gbytes_per_second gauge\n"
      "collbench_busbw_gbytes_per_second{" +
      labels +
      ",placement=\"out_of_place\"} 1\n"
      "collbench_busbw_gbytes_per_second{" +
      labels +
      ",placement=\"in_place\"} 1.6\n"
      "# HELP collbench_algbw_gbytes_per_second Algorithm bandwidth (nccl-tests' algbw) in GB/s (1e9 bytes per second).\n"
      "# TYPE collbench_algbw_gbytes_per_second gauge\n"
      "collbench_algbw_gbytes_per_second{" +
      labels +
      ",placement=\"out_of_place\"} 0.5\n"
      "collbench_algbw_gbytes_per_second{" +
      labels +
      ",placement=\"in_place\"} 0.8\n"
      "# HELP collbench_time_seconds Headline time of one collective call (nccl-tests' time) in seconds.\n"
      "# TYPE collbench_time_seconds gauge\n"
      "collbench_time_seconds{" +
      labels +
      ",placement=\"out_of_place\"} 1.25e-05\n"
      "collbench_time_seconds{" +
      labels +
      ",placement=\"in_place\"} 1e-05\n"
      "# HELP collbench_wrong_elements Wrong elements found by the data check, summed over ranks.\n"
      "# TYPE collbench_wrong_elements gauge\n"
      "collbench_wrong_elements{" +
      labels +
      ",placement=\"out_of_place\"} 0\n"
      "# HELP collbench_run_ok 1 when the run ended ok, with no wrong element and no failed expectation; else 0 "
      "(status: the run's status).\n"
      "# TYPE collbench_run_ok gauge\n"
      "collbench_run_ok{host=\"node0001\",status=\"ok\"} 1\n"
      "# HELP collbench_avg_busbw_gbytes_per_second Average bus bandwidth of the run (nccl-tests' Avg bus bandwidth) in GB/s.\n"
      "# TYPE collbench_avg_busbw_gbytes_per_second gauge\n"
      "collbench_avg_busbw_gbytes_per_second{host=\"node0001\"} 1.3\n"
      "# HELP collbench_peak_busbw_gbytes_per_second Highest bus bandwidth of the run in GB/s.\n"
      "# TYPE collbench_peak_busbw_gbytes_per_second gauge\n"
      "collbench_peak_busbw_gbytes_per_second{host=\"node0001\"} 1.6\n"
      "# HELP collbench_run_wrong_elements Wrong elements of the whole run, summed over rows, placements and ranks.\n"
      "# TYPE collbench_run_wrong_elements gauge\n"
      "collbench_run_wrong_elements{host=\"node0001\"} 0\n"
      "# HELP collbench_run_end_timestamp_seconds When the run ended, in seconds since the Unix epoch.\n"
      "# TYPE collbench_run_end_timestamp_seconds gauge\n"
      "collbench_run_end_timestamp_seconds{host=\"node0001\"} 1714564980\n"
      "# HELP collbench_run_ranks Ranks of the run.\n"
      "# TYPE collbench_run_ranks gauge\n"
      "collbench_run_ranks{host=\"node0001\"} 2\n"
      "# HELP collbench_run_info Always 1: what ran, as labels (hosts: every host of the job, comma-separated).\n"
      "# TYPE collbench_run_info gauge\n"
      "collbench_run_info{host=\"node0001\",hosts=\"node0001,node0002\",backend=\"nccl\",bootstrap=\"mpi\","
      "memory=\"device\",version=\"0.1.0\"} 1\n";
  EXPECT_EQ(prometheus_text(small_run()), expected);
}

TEST(PrometheusText, EscapesLabelValues) {
  EXPECT_EQ(escape_label_value("plain"), "plain");
  EXPECT_EQ(escape_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  RunDocument d = small_run();
  d.context.ranks.front().host = "odd\"host\\\nname";
  const std::string text = prometheus_text(d);
  EXPECT_NE(text.find("collbench_run_ranks{host=\"odd\\\"host\\\\\\nname\"} 2\n"), std::string::npos) << text;
  // Every sample stays on one line: a raw newline in a value would end it early.
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_TRUE(line.rfind("collbench_", 0) == 0 || line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0)
        << line;
  }
}

TEST(PrometheusText, RepeatedCyclesGiveOneSeriesWithTheLastFigures) {
  RunDocument d = small_run();
  SizeRecord again = d.rows.front();
  again.placements.front().busbw_gbps = 7;
  d.rows.push_back(again);
  const std::string text = prometheus_text(d);
  std::set<std::string> series;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind('#', 0) == 0) continue;
    const std::string name_and_labels = line.substr(0, line.rfind(' '));
    EXPECT_TRUE(series.insert(name_and_labels).second) << "duplicate series: " << line;
  }
  EXPECT_NE(text.find(",placement=\"out_of_place\"} 7\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("collbench_busbw_gbytes_per_second{host=\"node0001\",collective=\"all_reduce\",dtype=\"float\","
                      "op=\"sum\",root=\"\",size_bytes=\"8\",placement=\"out_of_place\"} 1\n"),
            std::string::npos)
      << text;
}

TEST(PrometheusText, FailedRunNonFiniteValuesRootsAndExpectations) {
  RunDocument d = small_run();
  d.rows.front().placements.front().busbw_gbps = std::numeric_limits<double>::quiet_NaN();
  d.rows.front().placements.back().algbw_gbps = std::numeric_limits<double>::infinity();
  SizeRecord rooted = sized("broadcast", "none", 8, 2);
  rooted.root = 1;
  rooted.placements = {measured(Placement::kOutOfPlace, 5, 1, 1, 4)};
  d.rows.push_back(rooted);
  d.summary.status = RunStatus::kInterrupted;
  d.summary.end_time = "";
  ExpectationResult failed;
  failed.passed = false;
  d.summary.expectations = {failed, ExpectationResult{}};
  d.summary.expectations.back().passed = true;
  const std::string text = prometheus_text(d);
  EXPECT_NE(text.find("placement=\"out_of_place\"} NaN\n"), std::string::npos) << text;
  EXPECT_NE(text.find("placement=\"in_place\"} +Inf\n"), std::string::npos) << text;
  EXPECT_NE(text.find("collbench_wrong_elements{host=\"node0001\",collective=\"broadcast\",dtype=\"float\",op=\"none\","
                      "root=\"1\",size_bytes=\"8\",placement=\"out_of_place\"} 4\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("collbench_run_ok{host=\"node0001\",status=\"interrupted\"} 0\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("collbench_run_end_timestamp_seconds"), std::string::npos) << "no end time, no series\n" << text;
  EXPECT_NE(text.find("collbench_expectations{host=\"node0001\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("collbench_expectations_failed{host=\"node0001\"} 1\n"), std::string::npos) << text;
}

TEST(PrometheusText, FailedExpectationMakesRunNotOk) {
  RunDocument d = small_run();
  d.summary.expectations = {ExpectationResult{}};
  EXPECT_NE(prometheus_text(d).find("collbench_run_ok{host=\"node0001\",status=\"ok\"} 0\n"), std::string::npos);
}

}  // namespace
}  // namespace collbench::report
