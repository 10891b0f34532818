// collbench health's verdicts from made-up step results: which host a finding lands on, what
// belongs to the job, and which exit code the whole check ends with.
#include "report/analysis/health.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "report/documents/health_json.hpp"
#include "report/documents/json_schema.hpp"
#include "report/render/health_text.hpp"

namespace collbench::report {
namespace {

// Two ranks on each of the hosts, in order.
PreflightReport preflight_of(const std::vector<std::string>& hosts) {
  PreflightReport p;
  int rank = 0;
  for (const auto& h : hosts) {
    for (int local = 0; local < 2; ++local) {
      PreflightRank r;
      r.rank = rank++;
      r.host = h;
      r.collective_ran = true;
      r.value_ok = true;
      p.ranks.push_back(r);
    }
  }
  p.expected = rank * (rank - 1) / 2;
  for (auto& r : p.ranks) r.value = p.expected;
  return p;
}

SizeRecord row_with_mismatch(int rank, const std::string& host) {
  SizeRecord row;
  row.collective = "all_reduce";
  row.size_bytes = 1 << 20;
  Measurement m;
  m.wrong = 1;
  m.mismatches.push_back({rank, host, 17, 6.0, 7.0});
  row.placements.push_back(m);
  return row;
}

ExpectationResult failed_expectation() {
  ExpectationResult r;
  r.measured = true;
  r.message = "all_reduce 1048576 B: busbw 1 GB/s, expected >= 2 GB/s";
  return r;
}

TEST(HealthVerdict, ACleanJobPasses) {
  const PreflightReport pre = preflight_of({"a", "b"});
  const std::vector<SizeRecord> rows;
  HealthInputs in;
  in.preflight = &pre;
  in.rows = &rows;
  HealthReport rep;
  assess_health(in, rep);
  ASSERT_EQ(rep.hosts.size(), 2u);
  EXPECT_EQ(rep.hosts[1].ranks, (std::vector<int>{2, 3}));
  EXPECT_TRUE(rep.passed());
  EXPECT_TRUE(health_status(rep).ok());
}

TEST(HealthVerdict, WrongDataLandsOnTheRanksHost) {
  const PreflightReport pre = preflight_of({"a", "b", "c"});
  const std::vector<SizeRecord> rows = {row_with_mismatch(3, "b"), row_with_mismatch(3, "b")};
  HealthInputs in;
  in.preflight = &pre;
  in.rows = &rows;
  HealthReport rep;
  assess_health(in, rep);
  EXPECT_TRUE(rep.hosts[0].passed());
  ASSERT_EQ(rep.hosts[1].findings.size(), 1u);
  EXPECT_EQ(rep.hosts[1].findings[0].message,
            "data: wrong elements in 2 measurements (first on rank 3, all_reduce 1 MiB out_of_place, element 17: "
            "expected 6, got 7)");
  const Status s = health_status(rep);
  EXPECT_EQ(s.code(), ErrorCode::kWrongData);
  EXPECT_EQ(s.message().rfind("health: 1 of 3 hosts failed (b); data: ", 0), 0u) << s.message();
}

TEST(HealthVerdict, TheJobsFiguresAreTheHostsOwnOnOneHostOnly) {
  for (const std::vector<std::string>& hosts : {std::vector<std::string>{"a"}, std::vector<std::string>{"a", "b"}}) {
    const PreflightReport pre = preflight_of(hosts);
    const std::vector<SizeRecord> rows;
    HealthInputs in;
    in.preflight = &pre;
    in.rows = &rows;
    in.expectations = {failed_expectation()};
    HealthReport rep;
    assess_health(in, rep);
    EXPECT_EQ(health_status(rep).code(), ErrorCode::kBelowExpectation);
    if (hosts.size() == 1) {
      EXPECT_EQ(rep.hosts[0].findings.size(), 1u);
      EXPECT_TRUE(rep.job_findings.empty());
    } else {
      // Which host held the job back is locate's question, not health's.
      EXPECT_TRUE(rep.hosts[0].passed());
      EXPECT_TRUE(rep.hosts[1].passed());
      ASSERT_EQ(rep.job_findings.size(), 1u);
      EXPECT_EQ(health_status(rep).message(),
                "health: 0 of 2 hosts failed, the job failed; expectation: " + failed_expectation().message);
    }
  }
}

TEST(HealthVerdict, LaunchProblemsComeFirstAndNameTheirHosts) {
  PreflightReport pre = preflight_of({"a", "b"});
  pre.problems.push_back(
      {Severity::kError, {2, 3}, {"b"}, "ranks 2 and 3 on b share GPU 0", "set CUDA_VISIBLE_DEVICES"});
  pre.problems.push_back({Severity::kWarning, {0}, {"a"}, "only a warning", ""});
  pre.verdict = PreflightVerdict::kLaunchProblem;
  HealthInputs in;
  in.preflight = &pre;  // the sweep did not run
  in.topology.checked = true;
  in.topology.reference = "ref.xml";
  in.topology.differing = {{"a", {"GPU 1 missing"}}};
  HealthReport rep;
  assess_health(in, rep);
  EXPECT_FALSE(rep.sweep_ran);
  ASSERT_EQ(rep.hosts[0].findings.size(), 1u);
  EXPECT_EQ(rep.hosts[0].findings[0].message, "topology differs from ref.xml: GPU 1 missing");
  ASSERT_EQ(rep.hosts[1].findings.size(), 1u);
  EXPECT_EQ(rep.hosts[1].findings[0].code, ErrorCode::kLaunch);
  EXPECT_EQ(health_status(rep).code(), ErrorCode::kLaunch);
}

TEST(HealthVerdict, TextAndJsonAgree) {
  PreflightReport pre = preflight_of({"node1", "node2"});
  pre.ranks[3].value = 5;
  pre.ranks[3].value_ok = false;
  pre.verdict = PreflightVerdict::kWrongData;
  HealthInputs in;
  in.preflight = &pre;
  in.topology.checked = true;
  in.topology.reference = "each other (no majority)";
  in.topology.job_problem = "no majority among the job's 2 hosts";
  HealthReport rep;
  rep.sweep_not_run_why = "the preflight failed";
  rep.job.hosts = {"node1", "node2"};
  rep.job.nranks = 4;
  assess_health(in, rep);
  std::ostringstream text;
  write_health_text(text, rep);
  EXPECT_EQ(text.str(), "host   verdict  details\n"
                        "node1  PASS     ranks 0,1\n"
                        "node2  FAIL     preflight: rank 3 got 5 instead of 6\n"
                        "(job)  FAIL     topology: no majority among the job's 2 hosts\n"
                        "# sweep: not run: the preflight failed\n"
                        "# topology: compared with each other (no majority)\n"
                        "# health: FAIL: 1 of 2 hosts passed; the job failed\n");
  const std::string json = health_json_text(rep);
  auto kind = validate_document_json(json);
  ASSERT_TRUE(kind.ok()) << kind.status().message() << json;
  EXPECT_NE(json.find("\"verdict\": \"fail\""), std::string::npos);
  EXPECT_NE(json.find("\"exit_code\": 7"), std::string::npos);
}

}  // namespace
}  // namespace collbench::report
