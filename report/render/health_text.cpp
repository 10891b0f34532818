#include "report/render/health_text.hpp"

#include <algorithm>
#include <string>

#include "common/text_table.hpp"

namespace collbench::report {
namespace {

std::string ranks_text(const std::vector<int>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) text += (i == 0 ? "" : ",") + std::to_string(ranks[i]);
  return text;
}

// "host  PASS  ranks 0,1" or one "host  FAIL  finding" row per finding.
void add_rows(TableRows& rows, const std::string& who, const std::string& detail,
              const std::vector<HealthFinding>& findings) {
  if (findings.empty()) {
    rows.push_back({who, "PASS", detail});
    return;
  }
  for (const auto& f : findings) rows.push_back({who, "FAIL", f.message});
}

}  // namespace

void write_health_text(std::ostream& out, const HealthReport& rep) {
  TableRows rows{{"host", "verdict", "details"}};
  for (const auto& h : rep.hosts) add_rows(rows, h.host, ranks_text(h.ranks), h.findings);
  if (!rep.job_findings.empty()) add_rows(rows, "(job)", "", rep.job_findings);
  out << render_text_table(rows);
  if (!rep.sweep_ran) out << "# sweep: not run: " << rep.sweep_not_run_why << "\n";
  if (rep.topology.checked) {
    out << "# topology: compared with " << rep.topology.reference << "\n";
  } else {
    out << "# topology: not checked: " << rep.topology.not_checked_why << "\n";
  }
  if (rep.sweep_ran && rep.expectations.empty()) out << "# expectations: none given (--expect FILE)\n";
  const std::size_t failed = static_cast<std::size_t>(
      std::count_if(rep.hosts.begin(), rep.hosts.end(), [](const HostHealth& h) { return !h.passed(); }));
  out << "# health: " << (rep.passed() ? "PASS" : "FAIL") << ": " << rep.hosts.size() - failed << " of "
      << rep.hosts.size() << " host" << (rep.hosts.size() == 1 ? "" : "s") << " passed"
      << (rep.job_findings.empty() ? "" : "; the job failed") << "\n";
}

}  // namespace collbench::report
