#include "report/health_record.hpp"

#include <algorithm>

namespace collbench::report {

const char* to_string(HealthCheck check) {
  switch (check) {
    case HealthCheck::kPreflight: return "preflight";
    case HealthCheck::kData: return "data";
    case HealthCheck::kTopology: return "topology";
    case HealthCheck::kExpectation: return "expectation";
  }
  return "?";
}

bool HealthReport::passed() const {
  return job_findings.empty() &&
         std::all_of(hosts.begin(), hosts.end(), [](const HostHealth& h) { return h.passed(); });
}

}  // namespace collbench::report
