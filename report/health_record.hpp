// What `collbench health` found: a verdict per host, with the findings that made a host fail,
// and the findings that belong to the job as a whole (a figure of the whole job below its
// expectation cannot be pinned on one host). Plain data for the text and JSON reporters.
#pragma once

#include <string>
#include <vector>

#include "common/status.hpp"
#include "report/expect_record.hpp"
#include "report/job_header.hpp"

namespace collbench::report {

inline constexpr int kHealthSchemaVersion = 1;
inline constexpr const char* kHealthSchemaName = "collbench.health";

// The checks of a health run, in the order they run.
enum class HealthCheck { kPreflight, kData, kTopology, kExpectation };
const char* to_string(HealthCheck check);  // "preflight", "data", "topology", "expectation"

struct HealthFinding {
  HealthCheck check = HealthCheck::kPreflight;
  ErrorCode code = ErrorCode::kInternal;  // the exit code this finding calls for
  std::string message;                    // one line
};

struct HostHealth {
  std::string host;
  std::vector<int> ranks;
  std::vector<HealthFinding> findings;
  bool passed() const { return findings.empty(); }
};

// A host whose topology differs from the reference, and how.
struct TopologyFinding {
  std::string host;
  std::vector<std::string> differences;
};

// What the topology step compared, for the report.
struct TopologyCheck {
  bool checked = false;
  std::string reference;  // "the majority of the job's hosts (3 of 4)", a file name
  std::vector<TopologyFinding> differing;
  std::string job_problem;      // e.g. no majority; empty when none
  std::string not_checked_why;  // when !checked
};

struct HealthReport {
  JobHeader job;
  std::vector<HostHealth> hosts;  // in the order of their first rank
  std::vector<HealthFinding> job_findings;
  bool sweep_ran = false;
  std::string sweep_not_run_why;
  std::vector<ExpectationResult> expectations;
  TopologyCheck topology;
  double avg_busbw_gbps = 0;
  bool passed() const;
};

}  // namespace collbench::report
