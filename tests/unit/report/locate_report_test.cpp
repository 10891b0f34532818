// The locate report: its JSON against the embedded collbench.locate schema, and its text.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/documents/json_schema.hpp"
#include "report/documents/locate_json.hpp"
#include "report/render/locate_text.hpp"

namespace collbench::report {
namespace {

using Json = nlohmann::ordered_json;

// Four ranks on one host; rank 2 arrives late and its pairs are slow.
LocateReport sample(bool outlier) {
  LocateReport r;
  r.job.tool_version = "0.1.0";
  r.job.git_commit = "abc";
  r.job.start_time = "2024-05-01T12:00:00Z";
  r.job.argv = {"collbench", "locate"};
  r.job.bootstrap = "mpi";
  r.job.backend = "mpi";
  r.job.backend_library = "Open MPI v4.1.4";
  r.job.memory = "host";
  r.job.nranks = 4;
  r.job.hosts = {"vm"};
  for (int i = 0; i < 4; ++i) r.ranks.push_back({i, "vm", i, "cpu", "CPUs 0-1", "", "", "", ""});
  r.ranks[2] = {2, "vm", 2, "cuda:2", "H100", "0000:1b:00.0", "GPU2 0000:1b:00.0", "mlx5_2", ""};
  r.budget_s = 30;
  r.spent_s = 12.5;
  r.phases = {{"setup", "done", 0.3, 0.3, ""},
              {"straggler", "done", 7.5, 3.6, ""},
              {"pairs", "cut", 13.5, 8.0, "cut by the budget after 6 of 9 rounds"},
              {"groups", "skipped", 0, 0, "one host: no other host or rail to compare with"}};
  r.all_reduce = {{4096, 50, 20100.5, 0.001}};
  r.pair_bytes = 8u << 20;
  r.pair_rounds = 3;
  r.pair_passes = 3;
  r.pair_steps_measured = 6;
  r.pairs = {{0, 1, false, 2, 2, 50, 900, 9.3}, {1, 2, false, 0, 2, 50, 24000, 0.35}};
  r.rule = {.threshold_mads = 4,
            .mad_floor = 0.05,
            .min_gap = 0.3,
            .decisive_gap = 0.6,
            .decisive_mads = 4,
            .decisive_others = 3};
  LocateComparison c{"all_reduce arrival", "straggler", "rank", "punctuality", "share", true, "", {}};
  for (int i = 0; i < 4; ++i) {
    LocateFigure f;
    f.label = "rank " + std::to_string(i);
    f.ranks = {i};
    f.hosts = {"vm"};
    f.value = i == 2 && outlier ? 0.01 : 0.99;
    f.details = {{"late_us", i == 2 && outlier ? 20000.0 : 3.0}};
    f.judged = true;
    f.reference = 0.99;
    f.spread = 0.0495;
    f.distance_mads = (f.reference - f.value) / f.spread;
    f.gap = (f.reference - f.value) / f.reference;
    f.outlier = i == 2 && outlier;
    c.figures.push_back(f);
  }
  r.comparisons.push_back(c);
  LocateComparison p{"intra-host pairs", "pairs", "pair", "p2p_gbps", "GB/s", false, "only one figure", {}};
  LocateFigure set_aside;
  set_aside.label = "pair 1-2";
  set_aside.ranks = {1, 2};
  set_aside.set_aside = "explained by rank 2, named above";
  p.figures.push_back(set_aside);
  LocateFigure contended;
  contended.label = "pair 0-1";
  contended.ranks = {0, 1};
  contended.value = 5;
  contended.details = {{"alone_gbps", 9.5}};
  contended.recheck = LocateRecheck::kNotConfirmed;
  p.figures.push_back(contended);
  r.comparisons.push_back(p);
  if (outlier) {
    const double inf = std::numeric_limits<double>::infinity();
    // One culprit named by two comparisons: one finding, both pieces of evidence.
    LocateFinding rank = make_finding("rank", "rank 2", {2}, {"vm"},
                                      {.figure = "rank 2",
                                       .comparison = "all_reduce arrival",
                                       .metric = "punctuality",
                                       .unit = "share",
                                       .value = 0.01,
                                       .reference = 0.99,
                                       .distance_mads = inf,
                                       .gap = 0.99});
    rank.evidence.push_back({.figure = "rank 2",
                             .comparison = "ranks over their intra-host pairs",
                             .metric = "rank_pair_gbps",
                             .unit = "GB/s",
                             .value = 1.5,
                             .reference = 9.0,
                             .distance_mads = 12.5,
                             .gap = 0.83});
    rank.cause = "descheduled 3412 times during the pairs (others: 40): CPU contention on its host, not the network";
    r.findings.push_back(rank);
    r.cpu = {{.rank = 0, .involuntary_switches = 40, .steal_share = 0.01},
             {.rank = 2, .involuntary_switches = 3412, .steal_share = std::numeric_limits<double>::quiet_NaN()}};
    // As a file written before findings had evidence reads: the flat fields only.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    r.findings.push_back({.subject = "host",
                          .label = "host vm",
                          .ranks = {0, 1, 2, 3},
                          .hosts = {"vm"},
                          .comparison = "every rank of the host named",
                          .metric = "ranks_named",
                          .unit = "ranks",
                          .value = 4,
                          .reference = nan,
                          .distance_mads = nan,
                          .gap = nan,
                          .evidence = {},
                          .cause = {}});
  }
  r.verdict = outlier ? LocateVerdict::kOutlier : LocateVerdict::kNoOutlier;
  r.notes = {"no GPU backend in this build"};
  return r;
}

std::string text_of(const LocateReport& r) {
  std::ostringstream out;
  write_locate_text(out, r);
  return out.str();
}

TEST(LocateJson, ValidAgainstTheEmbeddedSchema) {
  for (bool outlier : {false, true}) {
    const std::string text = locate_json_text(sample(outlier));
    auto kind = validate_document_json(text);
    ASSERT_TRUE(kind.ok()) << kind.status().message() << "\n" << text;
    EXPECT_EQ(*kind, "collbench locate");
  }
}

TEST(LocateJson, Fields) {
  const Json doc = Json::parse(locate_json_text(sample(true)));
  EXPECT_EQ(doc.at("schema"), "collbench.locate");
  EXPECT_EQ(doc.at("schema_version"), 1);
  EXPECT_EQ(doc.at("verdict"), "outlier");
  EXPECT_EQ(doc.at("rule").at("min_gap"), 0.3);
  EXPECT_EQ(doc.at("ranks").at(0).at("gpu"), nullptr);
  EXPECT_EQ(doc.at("ranks").at(2).at("nic"), "mlx5_2");
  EXPECT_EQ(doc.at("findings").at(0).at("distance_mads"), "inf");
  EXPECT_EQ(doc.at("findings").at(1).at("reference"), nullptr);
  const Json& evidence = doc.at("findings").at(0).at("evidence");
  ASSERT_EQ(evidence.size(), 2u);
  EXPECT_EQ(evidence.at(0).at("comparison"), "all_reduce arrival");
  EXPECT_EQ(evidence.at(0).at("distance_mads"), "inf");
  EXPECT_EQ(evidence.at(1).at("figure"), "rank 2");
  EXPECT_EQ(evidence.at(1).at("metric"), "rank_pair_gbps");
  EXPECT_EQ(evidence.at(1).at("value"), 1.5);
  EXPECT_TRUE(doc.at("findings").at(1).at("evidence").empty());
  EXPECT_EQ(doc.at("findings").at(0).at("cause"),
            "descheduled 3412 times during the pairs (others: 40): CPU contention on its host, not the network");
  EXPECT_EQ(doc.at("findings").at(1).at("cause"), nullptr);
  ASSERT_EQ(doc.at("cpu").size(), 2u);
  EXPECT_EQ(doc.at("cpu").at(1).at("involuntary_switches"), 3412);
  EXPECT_EQ(doc.at("cpu").at(1).at("steal_share"), nullptr);
  EXPECT_EQ(doc.at("cpu").at(0).at("steal_share"), 0.01);
  EXPECT_EQ(doc.at("measurements").at("pairs").at("pairs").at(1).at("class"), "intra_host");
  EXPECT_EQ(doc.at("budget").at("phases").at(2).at("status"), "cut");
  const Json& fig = doc.at("comparisons").at(1).at("figures");
  EXPECT_EQ(fig.at(0).at("reference"), nullptr);  // set aside: not judged
  EXPECT_EQ(fig.at(0).at("set_aside"), "explained by rank 2, named above");
  EXPECT_EQ(fig.at(1).at("recheck"), "not_confirmed");
  EXPECT_EQ(fig.at(1).at("details").at("alone_gbps"), 9.5);
}

TEST(LocateJson, SchemaRejectsAnUnknownVerdict) {
  Json doc = Json::parse(locate_json_text(sample(false)));
  doc["verdict"] = "maybe";
  const Status s = validate_json(document_kinds()[2].schema_text, doc.dump());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/verdict"), std::string::npos) << s.message();
}

TEST(LocateJson, RecheckNamesAreTheSchemasOwn) {
  // The writer's table and the schema's enum, state for state: neither may drift alone.
  const Json schema = Json::parse(document_kinds()[2].schema_text);
  const Json& allowed = schema.at("$defs").at("figure").at("properties").at("recheck").at("enum");
  Json written = Json::array();
  for (const LocateRecheck r : kLocateRechecks) {
    written.push_back(r == LocateRecheck::kNone ? Json(nullptr) : Json(to_string(r)));
  }
  EXPECT_EQ(written, allowed);
}

TEST(LocateText, VerdictInPlainWords) {
  const std::string text = text_of(sample(true));
  EXPECT_NE(text.find("# verdict: OUTLIER FOUND: 2 findings"), std::string::npos) << text;
  EXPECT_NE(text.find("rank 2 on vm (GPU2 0000:1b:00.0, NIC mlx5_2): all_reduce arrival: punctuality 0.010 against a "
                      "median of 0.990 for the others (99% below, inf MADs)"),
            std::string::npos)
      << text;
  // The second comparison that named rank 2 is a line under its finding, not a finding.
  EXPECT_NE(
      text.find(
          "(99% below, inf MADs)\n#     and ranks over their intra-host pairs: upper-quartile pair bandwidth 1.50 GB/s "
          "against a median of 9.00 for the others (83% below, 12.5 MADs)\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("#     cause: descheduled 3412 times during the pairs (others: 40): CPU contention on its host, "
                      "not the network\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("host vm (ranks 0, 1, 2, 3): every rank of the host named\n"), std::string::npos) << text;
  EXPECT_NE(text.find("more than 4 MADs (the MAD counted as at least 5% of the median) and at least 30% below"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("set aside: explained by rank 2, named above"), std::string::npos) << text;
  EXPECT_NE(text.find("# note: pair 0-1 ran at 5.00 GB/s beside other traffic but 9.50 GB/s alone"), std::string::npos)
      << text;
  EXPECT_NE(text.find("pairs 8.0 s of 13.5 (cut by the budget after 6 of 9 rounds)"), std::string::npos) << text;
  EXPECT_NE(text.find("groups skipped (one host: no other host or rail to compare with)"), std::string::npos) << text;
}

TEST(LocateText, NoOutlier) {
  const std::string text = text_of(sample(false));
  EXPECT_NE(text.find("# verdict: no outlier found"), std::string::npos) << text;
  EXPECT_EQ(text.find("OUTLIER"), std::string::npos) << text;
}

// A fleet's report: thousands of ranks, pairs and figures. The text keeps what a reader acts on
// (the lowest pairs and rings, every outlier and suspect, the lowest judged figures) and says
// how many rows the JSON holds beside them.
TEST(LocateText, LongListsShowTheLowestAndEveryOutlier) {
  LocateReport r = sample(false);
  r.ranks.clear();
  r.pairs.clear();
  r.groups.clear();
  LocateComparison c{"inter-host pairs", "pairs", "pair", "p2p_gbps", "GB/s", true, "", {}};
  for (int i = 0; i < 1000; ++i) {
    r.ranks.push_back({i, "h" + std::to_string(i / 8), i % 8, "cpu", "CPUs 0-1", "", "", "", ""});
    const double gbps = i == 700 ? 1.0 : 20.0 + (i % 50) * 0.01;
    r.pairs.push_back({i, i + 1000, true, 0, 1, 50, 100, gbps});
    LocateFigure f;
    f.label = "pair " + std::to_string(i) + "-" + std::to_string(i + 1000);
    f.value = gbps;
    f.judged = i != 5;  // a figure set aside is not among the lowest shown
    f.set_aside = i == 5 ? "named above" : "";
    f.outlier = i == 700;
    f.recheck = i == 901 ? LocateRecheck::kNotConfirmed : LocateRecheck::kNone;
    c.figures.push_back(std::move(f));
  }
  r.groups.push_back({"rail", "local rank 0", std::vector<int>(r.ranks.size() / 8), 50, 100, 3.0});
  r.comparisons = {c};
  const std::string text = text_of(r);
  EXPECT_NE(text.find("# 1000 ranks: the rank table is in the JSON report (-J)\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("CPUs 0-1"), std::string::npos) << text;
  EXPECT_NE(text.find("700-1700  inter_host"), std::string::npos) << text;
  EXPECT_NE(text.find("  ... 990 more pairs, faster than these (every row in the JSON report, -J)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("0, 0, 0, ..., 0 (125 ranks)"), std::string::npos) << text;
  EXPECT_NE(text.find("pair 700-1700"), std::string::npos) << text;
  EXPECT_NE(text.find("pair 901-1901"), std::string::npos) << text;  // a suspect
  EXPECT_EQ(text.find("pair 5-1005 "), std::string::npos) << text;
  EXPECT_EQ(text.find("pair 49-1049 "), std::string::npos) << text;  // among the highest
  // 1,000 figures: the outlier, the suspect and the 10 lowest judged (the outlier one of them).
  EXPECT_NE(text.find("  ... 989 more figures, none of them an outlier (every row in the JSON report, -J)\n"),
            std::string::npos)
      << text;
}

// --fabric: each rank's leaf switch in the JSON and as a column of the rank table; an uplink
// finding (subject switch, metric uplink_share) valid against the schema and described by its hosts.
TEST(LocateJson, SwitchesOfAFabric) {
  LocateReport r = sample(true);
  for (auto& rank : r.ranks) rank.leaf = rank.rank < 2 ? "s1" : "leaf-two";
  LocateComparison c{"switch uplinks (pairs across a leaf against inside it)",
                     "pairs",
                     "switch",
                     "uplink_share",
                     "share",
                     true,
                     "",
                     {}};
  c.figures.push_back({});
  c.figures[0].label = "uplink of switch s1";
  c.figures[0].ranks = {0, 1};
  c.figures[0].hosts = {"vm"};
  c.figures[0].details = {{"across_gbps", 0.1}, {"across_pairs", 4}};
  r.comparisons.push_back(c);
  r.findings.push_back(make_finding("switch", "uplink of switch s1", {0, 1}, {"vm"},
                                    {.figure = "uplink of switch s1",
                                     .comparison = c.name,
                                     .metric = "uplink_share",
                                     .unit = "share",
                                     .value = 0.02,
                                     .reference = 1,
                                     .distance_mads = 19,
                                     .gap = 0.98}));
  const std::string text = locate_json_text(r);
  auto kind = validate_document_json(text);
  ASSERT_TRUE(kind.ok()) << kind.status().message();
  const Json doc = Json::parse(text);
  EXPECT_EQ(doc.at("ranks").at(2).at("switch"), "leaf-two");
  EXPECT_TRUE(doc.at("ranks").at(0).contains("switch"));
  EXPECT_TRUE(sample(false).ranks[0].leaf.empty());
  EXPECT_TRUE(Json::parse(locate_json_text(sample(false))).at("ranks").at(0).at("switch").is_null());
  const std::string rendered = text_of(r);
  EXPECT_NE(rendered.find("switch"), std::string::npos);
  EXPECT_NE(rendered.find("leaf-two"), std::string::npos);
  EXPECT_NE(rendered.find("across_pairs 4]"), std::string::npos) << "pair counts are whole numbers";
  EXPECT_EQ(text_of(sample(false)).find("switch"), std::string::npos) << "no column without a fabric";
  EXPECT_EQ(describe_finding(r, r.findings.back()), "uplink of switch s1 (hosts vm)");
}

TEST(LocateText, DescribeFinding) {
  const LocateReport r = sample(true);
  EXPECT_EQ(describe_finding(r, r.findings[0]), "rank 2 on vm (GPU2 0000:1b:00.0, NIC mlx5_2)");
  const LocateFinding pair = make_finding("pair", "pair 0-1", {0, 1}, {"vm"},
                                          {.figure = "pair 0-1",
                                           .comparison = "intra-host pairs",
                                           .metric = "p2p_gbps",
                                           .unit = "GB/s",
                                           .value = 1,
                                           .reference = 9,
                                           .distance_mads = 9,
                                           .gap = 0.9});
  EXPECT_EQ(describe_finding(r, pair), "pair 0-1 (rank 0 on vm (CPUs 0-1) and rank 1 on vm (CPUs 0-1))");
}

}  // namespace
}  // namespace collbench::report
