// The locator's real plan and verdict over a simulated job (SimMeasurer): the seam of
// docs/design/locate-at-scale.md. Fixed seeds: the same model gives the same samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "bench/engine/locate/locator.hpp"
#include "bench/engine/locate/sim/sim_measurer.hpp"

namespace collbench::engine::locate::sim {
namespace {

struct SimRun {
  report::LocateReport report;
  std::uint64_t steps = 0;
};

SimRun locate(const std::string& model_json, double budget_s = 60) {
  auto model = parse_sim_model(model_json);
  EXPECT_TRUE(model.ok()) << model.status().message();
  auto m = SimMeasurer::make(*model);
  EXPECT_TRUE(m.ok()) << m.status().message();
  LocateOptions options;
  options.budget_s = budget_s;
  options.places = places_of(m->network());
  auto rep = run_locate(options, *m, {});
  EXPECT_TRUE(rep.ok()) << rep.status().message();
  return {rep.ok() ? *rep : report::LocateReport{}, m->steps()};
}

std::vector<std::string> labels(const report::LocateReport& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings) out.push_back(f.label);
  return out;
}

TEST(SimLocate, ACleanJobNamesNothing) {
  const SimRun run = locate(R"({"hosts": 4, "ranks_per_host": 2, "seed": 3})");
  EXPECT_EQ(run.report.verdict, report::LocateVerdict::kNoOutlier) << ::testing::PrintToString(labels(run.report));
  EXPECT_GT(run.steps, 10u);
}

TEST(SimLocate, ASlowHostIsNamedAlone) {
  const SimRun run = locate(R"({"hosts": 4, "ranks_per_host": 2, "seed": 1,
                             "faults": [{"kind": "slow_host", "host": 2, "factor": 0.2}]})");
  ASSERT_EQ(run.report.findings.size(), 1u) << ::testing::PrintToString(labels(run.report));
  EXPECT_EQ(run.report.findings[0].hosts, (std::vector<std::string>{"h2"}));
  EXPECT_EQ(run.report.verdict, report::LocateVerdict::kOutlier);
}

TEST(SimLocate, ASlowUplinkIsNamedAsItsSwitch) {
  const SimRun run = locate(R"({"hosts": 6, "hosts_per_leaf": 2, "seed": 1,
                             "faults": [{"kind": "slow_uplink", "leaf": 2, "factor": 0.1}]})");
  ASSERT_EQ(run.report.findings.size(), 1u) << ::testing::PrintToString(labels(run.report));
  EXPECT_EQ(run.report.findings[0].subject, "switch");
  EXPECT_EQ(run.report.findings[0].label, "uplink of switch s2");
}

// Simulated time is what the budget is spent against: within it, and the same for the same seed.
TEST(SimLocate, TheBudgetIsSpentInSimulatedTimeAndTheSameSeedGivesTheSameRun) {
  const std::string model = R"({"hosts": 4, "seed": 5, "faults": [{"kind": "slow_host", "host": 1, "factor": 0.5}]})";
  const SimRun a = locate(model, 20);
  const SimRun b = locate(model, 20);
  EXPECT_GT(a.report.spent_s, 0);
  EXPECT_LE(a.report.spent_s, 20 * 1.05);
  EXPECT_EQ(a.report.spent_s, b.report.spent_s);
  EXPECT_EQ(labels(a.report), labels(b.report));
  EXPECT_EQ(a.steps, b.steps);
}

// A fault (the model's "faults" list) and the findings it must give, by label.
struct FaultCase {
  const char* faults;
  std::vector<std::string> named;
};

// Each case over one cluster (`cluster`: the model's other keys, noise as in docs/locate.md's
// simulated table): each fault named as what it is, and nothing else. Returns the runs.
std::vector<SimRun> expect_each_named(const std::string& cluster, std::span<const FaultCase> cases, double budget_s) {
  std::vector<SimRun> runs;
  for (const auto& c : cases) {
    runs.push_back(locate(
        "{" + cluster + R"(, "noise": {"sigma": 0.05, "spike_probability": 0.001, "spike_factor": 3}, "faults": )" +
            c.faults + "}",
        budget_s));
    EXPECT_EQ(labels(runs.back().report), c.named) << c.faults;
  }
  return runs;
}

// The issue's smallest fleet size, 16 hosts of 8 ranks under leaves of 4.
TEST(SimLocate, SixteenHostsOfEightRanksNameEachFaultAsWhatItIs) {
  const FaultCase cases[] = {
      {"[]", {}},
      {R"([{"kind": "slow_host", "host": 5, "factor": 0.2}])", {"host h5"}},
      {R"([{"kind": "slow_nic", "rank": 42, "factor": 0.2}])", {"rank 42"}},
      {R"([{"kind": "slow_link", "hosts": [2, 9], "factor": 0.2}])", {"link h2-h9"}},
      {R"([{"kind": "slow_uplink", "leaf": 2, "factor": 0.2}])", {"uplink of switch s2"}},
      {R"([{"kind": "slow_host", "host": 3, "factor": 0.2}, {"kind": "slow_host", "host": 12, "factor": 0.2}])",
       {"host h3", "host h12"}},
  };
  expect_each_named(R"("hosts": 16, "ranks_per_host": 8, "hosts_per_leaf": 4, "seed": 1)", cases, 60);
}

// Above 32 ranks the pairs are sampled: rounds of random host pairs, not every pair.
TEST(SimLocate, OneHundredTwentyEightHostsAreSampledAndEachFaultNamed) {
  const FaultCase cases[] = {
      {"[]", {}},
      {R"([{"kind": "slow_host", "host": 77, "factor": 0.05}])", {"host h77"}},
      {R"([{"kind": "slow_host", "host": 3, "factor": 0.5}])", {"host h3"}},
      {R"([{"kind": "slow_uplink", "leaf": 5, "factor": 0.2}])", {"uplink of switch s5"}},
      {R"([{"kind": "slow_host", "host": 10, "factor": 0.2}, {"kind": "slow_host", "host": 100, "factor": 0.2}])",
       {"host h10", "host h100"}},
  };
  for (const SimRun& run :
       expect_each_named(R"("hosts": 128, "ranks_per_host": 8, "hosts_per_leaf": 16, "seed": 2)", cases, 120)) {
    EXPECT_EQ(run.report.pair_rounds, 14) << "2 x log2(128 hosts) rounds per pass, of 1,023";
    EXPECT_LE(run.report.pair_steps_measured, 3 * 14);
  }
}

// Leaves of two hosts among 128: random host pairs would put almost no pair inside a leaf
// (1 in 127 per host and round), so the uplink comparison would have nothing to divide by;
// with a fabric the sampled rounds pair hosts inside every leaf as well as across.
TEST(SimLocate, SmallLeavesAmongManyHostsStillNameTheirUplink) {
  const FaultCase cases[] = {
      {R"([{"kind": "slow_uplink", "leaf": 7, "factor": 0.2}])", {"uplink of switch s7"}},
      {R"([{"kind": "slow_host", "host": 14, "factor": 0.2}])", {"host h14"}},
  };
  for (const SimRun& run :
       expect_each_named(R"("hosts": 128, "ranks_per_host": 2, "hosts_per_leaf": 2, "seed": 4)", cases, 120)) {
    EXPECT_EQ(run.report.pair_rounds, 14);
    EXPECT_NE(std::find_if(
                  run.report.notes.begin(), run.report.notes.end(),
                  [](const std::string& n) {
      return n.find("1 inside leaf switches, 13 across") != std::string::npos;
                  }),
              run.report.notes.end())
        << ::testing::PrintToString(run.report.notes);
    int leaves = 0;
    for (const auto& c : run.report.comparisons) {
      if (c.subject != "switch") continue;
      for (const auto& f : c.figures) {
        ++leaves;
        EXPECT_TRUE(f.judged) << f.label << ": " << f.set_aside;
      }
    }
    EXPECT_EQ(leaves, 64) << "every leaf's uplink judged";
  }
}

// The issue's largest fleet: 1,024 hosts of 8 ranks, 256 KiB messages, within 120 s of
// simulated time and a few seconds of CPU.
TEST(SimLocate, AThousandHostsNameTheSlowOneWithinTheBudget) {
  const auto model = parse_sim_model(R"({"hosts": 1024, "ranks_per_host": 8, "nic_gbps": 25, "hosts_per_leaf": 32,
      "seed": 4, "noise": {"sigma": 0.05, "spike_probability": 0.001, "spike_factor": 3},
      "faults": [{"kind": "slow_host", "host": 613, "factor": 0.2}]})");
  ASSERT_TRUE(model.ok()) << model.status().message();
  auto m = SimMeasurer::make(*model);
  ASSERT_TRUE(m.ok()) << m.status().message();
  LocateOptions options;
  options.budget_s = 120;
  options.min_bytes = options.max_bytes = 256 << 10;
  options.places = places_of(m->network());
  const auto rep = run_locate(options, *m, {});
  ASSERT_TRUE(rep.ok()) << rep.status().message();
  EXPECT_EQ(labels(*rep), (std::vector<std::string>{"host h613"}));
  EXPECT_EQ(rep->pair_rounds, 20);
  EXPECT_LE(rep->spent_s, 120);
}

}  // namespace
}  // namespace collbench::engine::locate::sim
