#include "report/analysis/health.hpp"

#include <algorithm>
#include <string>

#include "common/units.hpp"
#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

HostHealth* host_of(HealthReport& report, const std::string& host) {
  for (auto& h : report.hosts) {
    if (h.host == host) return &h;
  }
  return nullptr;
}

// Onto the host, or the job when the host is not one of the job's (or unknown).
void add_finding(HealthReport& report, const std::string& host, HealthFinding finding) {
  if (HostHealth* h = host_of(report, host)) {
    h->findings.push_back(std::move(finding));
  } else {
    report.job_findings.push_back(std::move(finding));
  }
}

void assess_preflight(const PreflightReport& pre, HealthReport& report) {
  for (const auto& r : pre.ranks) {
    if (!r.collective_ran || r.value_ok) continue;
    add_finding(report, r.host,
                {HealthCheck::kPreflight, ErrorCode::kWrongData,
                 "preflight: rank " + std::to_string(r.rank) + " got " + std::to_string(r.value) + " instead of " +
                     std::to_string(pre.expected)});
  }
  for (const auto& p : pre.problems) {
    if (p.severity != Severity::kError) continue;
    const HealthFinding finding{HealthCheck::kPreflight, ErrorCode::kLaunch, "preflight: " + p.message};
    if (p.hosts.empty()) report.job_findings.push_back(finding);
    for (const auto& host : p.hosts) add_finding(report, host, finding);
  }
}

// One finding per host: where its first wrong element was, and how many rows had one there.
void assess_data(const std::vector<SizeRecord>& rows, HealthReport& report) {
  struct Seen {
    std::string first;
    int measurements = 0;
  };
  std::vector<std::pair<std::string, Seen>> per_host;
  for (const auto& row : rows) {
    for (const auto& m : row.placements) {
      std::vector<std::string> counted;
      for (const auto& x : m.mismatches) {
        auto it = std::find_if(per_host.begin(), per_host.end(), [&](const auto& p) { return p.first == x.host; });
        if (it == per_host.end()) {
          const std::string first = "first on rank " + std::to_string(x.rank) + ", " + row.collective + " " +
                                    format_bytes(row.size_bytes) + " " + to_string(m.placement) + ", element " +
                                    std::to_string(x.index) + ": expected " + format_shortest(x.expected) + ", got " +
                                    format_shortest(x.got);
          per_host.emplace_back(x.host, Seen{first, 0});
          it = std::prev(per_host.end());
        }
        if (std::find(counted.begin(), counted.end(), x.host) == counted.end()) {
          ++it->second.measurements;
          counted.push_back(x.host);
        }
      }
    }
  }
  for (const auto& [host, seen] : per_host) {
    add_finding(report, host,
                {HealthCheck::kData, ErrorCode::kWrongData,
                 "data: wrong elements in " + std::to_string(seen.measurements) + " measurement" +
                     (seen.measurements == 1 ? "" : "s") + " (" + seen.first + ")"});
  }
}

void assess_topology(const TopologyCheck& topology, HealthReport& report) {
  for (const auto& d : topology.differing) {
    std::string what;
    for (const auto& line : d.differences) what += (what.empty() ? "" : "; ") + line;
    add_finding(report, d.host,
                {HealthCheck::kTopology, ErrorCode::kMismatch,
                 "topology differs from " + topology.reference + ": " + what});
  }
  if (!topology.job_problem.empty()) {
    report.job_findings.push_back({HealthCheck::kTopology, ErrorCode::kMismatch, "topology: " + topology.job_problem});
  }
}

// The job's figures: on a one-host job they are that host's own.
void assess_expectations(const std::vector<ExpectationResult>& results, HealthReport& report) {
  for (const auto& r : results) {
    if (r.passed) continue;
    HealthFinding finding{HealthCheck::kExpectation, ErrorCode::kBelowExpectation, "expectation: " + r.message};
    if (report.hosts.size() == 1) {
      report.hosts.front().findings.push_back(std::move(finding));
    } else {
      report.job_findings.push_back(std::move(finding));
    }
  }
}

}  // namespace

void assess_health(const HealthInputs& in, HealthReport& report) {
  report.hosts.clear();
  report.job_findings.clear();
  for (const auto& r : in.preflight->ranks) {
    HostHealth* h = host_of(report, r.host);
    if (h == nullptr) h = &report.hosts.emplace_back(HostHealth{r.host, {}, {}});
    h->ranks.push_back(r.rank);
  }
  assess_preflight(*in.preflight, report);
  report.sweep_ran = in.rows != nullptr;
  if (in.rows != nullptr) assess_data(*in.rows, report);
  report.topology = in.topology;
  assess_topology(in.topology, report);
  report.expectations = in.expectations;
  assess_expectations(in.expectations, report);
}

Status health_status(const HealthReport& report) {
  const HealthFinding* worst = nullptr;
  std::string failed;
  const auto consider = [&](const HealthFinding& f) {
    if (worst == nullptr || f.check < worst->check ||
        (f.check == worst->check && f.code == ErrorCode::kLaunch && worst->code != ErrorCode::kLaunch)) {
      worst = &f;
    }
  };
  std::size_t failed_hosts = 0;
  for (const auto& h : report.hosts) {
    if (h.passed()) continue;
    ++failed_hosts;
    failed += (failed.empty() ? "" : ", ") + h.host;
    for (const auto& f : h.findings) consider(f);
  }
  for (const auto& f : report.job_findings) consider(f);
  if (worst == nullptr) return ok_status();
  std::string who = std::to_string(failed_hosts) + " of " + std::to_string(report.hosts.size()) + " host" +
                    (report.hosts.size() == 1 ? "" : "s") + " failed" + (failed.empty() ? "" : " (" + failed + ")");
  if (!report.job_findings.empty()) who += failed_hosts > 0 ? " and the job failed" : ", the job failed";
  return Status::error(worst->code, "health: " + who + "; " + worst->message);
}

}  // namespace collbench::report
