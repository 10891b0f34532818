// `collbench health`: the verdict of each host from what the steps found (a pure function, so
// that the lines, the JSON and the exit code agree).
//
// A finding goes to the host it is about: a preflight rank that got a wrong value, a launch
// problem naming hosts, wrong elements on a host's rank, a topology that differs from the
// reference. What concerns the whole job (a launch problem naming no host, an expectation the
// job's figures miss, hosts without a majority topology) is a job finding.
#pragma once

#include <vector>

#include "common/status.hpp"
#include "report/health_record.hpp"
#include "report/preflight_record.hpp"
#include "report/record.hpp"

namespace collbench::report {

struct HealthInputs {
  const PreflightReport* preflight = nullptr;     // rank 0's complete report
  const std::vector<SizeRecord>* rows = nullptr;  // nullptr when the sweep did not run
  std::vector<ExpectationResult> expectations;
  TopologyCheck topology;
};

// Fills report.hosts (from the preflight's ranks), report.job_findings and the steps' results;
// report.job is the caller's.
void assess_health(const HealthInputs& inputs, HealthReport& report);

// Ok when every host and the job passed; otherwise the first finding's code by the order of
// the checks (a launch problem before wrong data, before a topology, before an expectation),
// with one line naming the failed hosts.
Status health_status(const HealthReport& report);

}  // namespace collbench::report
