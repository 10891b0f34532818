#include "report/analysis/node_ranking.hpp"
#include "report/render/ranking_format.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "report/documents/json_internal.hpp"
#include "report_test_data.hpp"

namespace collbench::report {
namespace {

using testing::labeled;
using testing::load_fixture;
using testing::sweep;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

std::vector<ReportRun> three_nodes() {
  return {load_fixture("node-a.json"), load_fixture("node-b.json"), load_fixture("node-c.json")};
}

const ContextRow* row(const Ranking& r, const std::string& field) {
  for (const auto& c : r.context) {
    if (c.field == field) return &c;
  }
  return nullptr;
}

TEST(NodeRanking, SlowNodeIsLastAndFlagged) {
  const Ranking r = rank_runs(three_nodes(), {});
  ASSERT_EQ(r.runs.size(), 3u);
  ASSERT_TRUE(r.basis.has_value());
  EXPECT_EQ(describe(*r.basis), "all_reduce float sum out-of-place");
  EXPECT_EQ(r.score_size, std::uint64_t{1} << 30);
  EXPECT_EQ(r.runs.back().label, "node-c");
  EXPECT_TRUE(r.runs.back().flagged);
  EXPECT_EQ(r.flagged(), 1u);
  EXPECT_EQ(r.runs.front().place, 1);
  EXPECT_EQ(r.runs.back().place, 3);
  EXPECT_FALSE(r.runs[0].flagged);
  EXPECT_FALSE(r.runs[1].flagged);
  EXPECT_GE(*r.runs[0].score_gbps, *r.runs[1].score_gbps);
  EXPECT_LT(*r.runs.back().vs_median, 0.9);
}

TEST(NodeRanking, FlagThresholdIsTheCallersChoice) {
  RankingOptions loose;
  loose.flag_below = 0.5;
  EXPECT_EQ(rank_runs(three_nodes(), loose).flagged(), 0u);
}

TEST(NodeRanking, DifferencesAreSideBySide) {
  const Ranking r = rank_runs(three_nodes(), {});
  EXPECT_EQ(r.labels, (std::vector<std::string>{"node-a", "node-b", "node-c"}));
  ASSERT_NE(row(r, "backend"), nullptr);
  EXPECT_TRUE(row(r, "backend")->differs);
  EXPECT_EQ(row(r, "backend")->values[1], "nccl (NCCL 2.20.3)");
  ASSERT_NE(row(r, "env NCCL_P2P_LEVEL"), nullptr);
  EXPECT_EQ(row(r, "env NCCL_P2P_LEVEL")->values, (std::vector<std::string>{"-", "-", "PHB"}));
  EXPECT_FALSE(row(r, "devices")->differs);
  EXPECT_EQ(row(r, "topology links"), nullptr);  // no topology: no topology rows
}

TEST(NodeRanking, TopologyDifferencesWhenKnown) {
  std::vector<ReportRun> runs = three_nodes();
  TopologyMatrix nvlink{"gpu-a01", {"GPU0", "GPU1"}, {{"X", "NV18"}, {"NV18", "X"}}, {}, 450.0, "NVLink4 x18"};
  for (auto& run : runs) run.topology = {nvlink};
  runs[2].topology[0].cells = {{"X", "SYS"}, {"SYS", "X"}};
  const Ranking r = rank_runs(runs, {});
  ASSERT_NE(row(r, "topology links"), nullptr);
  EXPECT_TRUE(row(r, "topology links")->differs);
  EXPECT_EQ(row(r, "topology links")->values[2], "gpu-a01: 2x SYS");
  ASSERT_TRUE(r.runs.front().figures->percent_of_link.has_value());
}

TEST(NodeRanking, MultiHostRunListsTheSlowestRankPerHost) {
  const Ranking r = rank_runs({load_fixture("mismatched.json")}, {});
  ASSERT_EQ(r.stragglers.size(), 2u);
  EXPECT_EQ(r.stragglers[0].host, "node0001");
  EXPECT_EQ(r.stragglers[1].host, "node0002");
  EXPECT_GT(r.stragglers[1].slowest, r.stragglers[0].slowest);
  EXPECT_EQ(r.stragglers[0].slowest + r.stragglers[1].slowest, r.stragglers[0].points);
  EXPECT_FALSE(r.notes.empty());
}

TEST(NodeRanking, NothingInCommonIsSaidNotGuessed) {
  const auto flat = [](auto) { return 100.0; };
  const Ranking r = rank_runs(
      {labeled("a", sweep({kMiB}, flat)), labeled("b", sweep({kMiB}, flat, 0.99, 1.01, "all_gather"))}, {});
  EXPECT_FALSE(r.basis.has_value());
  EXPECT_FALSE(r.notes.empty());
  for (const auto& run : r.runs) EXPECT_EQ(run.place, 0);
  EXPECT_EQ(r.flagged(), 0u);
}

TEST(NodeRanking, PeakWhenNoReferenceSizeIsShared) {
  const auto flat = [](auto) { return 100.0; };
  const Ranking r = rank_runs({labeled("a", sweep({4096}, flat)), labeled("b", sweep({8192}, flat))}, {});
  EXPECT_FALSE(r.score_size.has_value());
  EXPECT_EQ(r.score_name().rfind("peak busbw", 0), 0u);
}

TEST(NodeRanking, FormatsNameTheFlaggedRun) {
  const Ranking r = rank_runs(three_nodes(), {});
  const std::string text = format_ranking(r, TextFormat::kText);
  EXPECT_NE(text.find("BELOW"), std::string::npos);
  EXPECT_NE(text.find("1 of 3 runs flagged"), std::string::npos);
  EXPECT_NE(format_ranking(r, TextFormat::kMarkdown).find("| # | run |"), std::string::npos);
  const Json j = Json::parse(format_ranking(r, TextFormat::kJson));
  EXPECT_EQ(j.at("flagged"), 1);
  EXPECT_EQ(j.at("runs").back().at("label"), "node-c");
  EXPECT_TRUE(j.at("runs").back().at("flagged").get<bool>());
}

}  // namespace
}  // namespace collbench::report
