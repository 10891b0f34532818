#include "report/render/preflight_text.hpp"

#include <algorithm>
#include <string>

#include "common/text_table.hpp"
#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

std::string fixed(double v, int decimals) { return format_fixed(v, decimals); }

std::string device_text(const PreflightRank& r) {
  if (r.device == "cpu") return r.device_name;
  return r.device + (r.pci_bus_id.empty() ? "" : " " + r.pci_bus_id);
}

void write_rank_lines(std::ostream& out, const PreflightReport& rep) {
  std::size_t host_w = 4;
  std::size_t dev_w = 6;
  for (const auto& r : rep.ranks) {
    host_w = std::max(host_w, r.host.size());
    dev_w = std::max(dev_w, device_text(r).size());
  }
  out << pad("rank", 6, Align::kRight) << "  " << pad("host", host_w, Align::kLeft) << "  "
      << pad("local", 7, Align::kLeft) << "  " << pad("device", dev_w, Align::kLeft) << "  "
      << pad("value", 12, Align::kRight) << "  " << pad("check", 5, Align::kLeft) << "  "
      << pad("bootstrap", 12, Align::kRight) << "  " << pad("communicator", 12, Align::kRight) << "  "
      << pad("all_reduce", 10, Align::kRight) << "\n";
  for (const auto& r : rep.ranks) {
    const std::string value = r.collective_ran ? std::to_string(r.value) : "-";
    const std::string check = r.collective_ran ? (r.value_ok ? "OK" : "WRONG") : "-";
    out << pad(std::to_string(r.rank), 6, Align::kRight) << "  " << pad(r.host, host_w, Align::kLeft) << "  "
        << pad(std::to_string(r.local_rank) + "/" + std::to_string(r.local_size), 7, Align::kLeft) << "  "
        << pad(device_text(r), dev_w, Align::kLeft) << "  " << pad(value, 12, Align::kRight) << "  "
        << pad(check, 5, Align::kLeft) << "  " << pad(fixed(r.bootstrap_ms, 1) + " ms", 12, Align::kRight) << "  "
        << pad(fixed(r.communicator_ms, 1) + " ms", 12, Align::kRight) << "  "
        << pad(r.collective_ran ? fixed(r.collective_us, 0) + " us" : "-", 10, Align::kRight) << "\n";
  }
}

template <typename Field>
const PreflightRank* slowest(const PreflightReport& rep, Field field) {
  const PreflightRank* worst = nullptr;
  for (const auto& r : rep.ranks) {
    if (worst == nullptr || r.*field > worst->*field) worst = &r;
  }
  return worst;
}

void write_summary(std::ostream& out, const PreflightReport& rep) {
  const auto n = rep.job.nranks;
  out << "# expected on every rank: " << rep.expected << " = " << n << "*(" << n << "-1)/2\n";
  if (const auto* b = slowest(rep, &PreflightRank::bootstrap_ms)) {
    const auto* c = slowest(rep, &PreflightRank::communicator_ms);
    out << "# initialisation: bootstrap up to " << fixed(b->bootstrap_ms, 1) << " ms (rank " << b->rank << " on "
        << b->host << "), communicator up to " << fixed(c->communicator_ms, 1) << " ms (rank " << c->rank << " on "
        << c->host << ")\n";
  }
  if (rep.problems.empty()) out << "# problems: none\n";
  for (const auto& p : rep.problems) {
    out << "# " << to_string(p.severity) << ": " << p.message << "\n#   fix: " << p.fix << "\n";
  }
}

std::string verdict_line(const PreflightReport& rep) {
  switch (rep.verdict) {
    case PreflightVerdict::kOk:
      return "OK: the process group works; all " + std::to_string(rep.job.nranks) + " ranks received " +
             std::to_string(rep.expected);
    case PreflightVerdict::kWrongData: {
      std::string wrong;
      for (const auto& r : rep.ranks) {
        if (r.collective_ran && !r.value_ok) {
          wrong += (wrong.empty() ? "" : ", ") + std::string("rank ") + std::to_string(r.rank) + " on " + r.host +
                   " got " + std::to_string(r.value);
        }
      }
      return "WRONG DATA: " + wrong + " (expected " + std::to_string(rep.expected) + ")";
    }
    case PreflightVerdict::kLaunchProblem:
      return "LAUNCH PROBLEM: the all_reduce was not attempted; fix the errors above first";
  }
  return "";
}

}  // namespace

const char* to_string(Severity s) { return s == Severity::kWarning ? "warning" : "error"; }

const char* to_string(PreflightVerdict v) {
  switch (v) {
    case PreflightVerdict::kOk: return "ok";
    case PreflightVerdict::kWrongData: return "wrong_data";
    case PreflightVerdict::kLaunchProblem: return "launch_problem";
  }
  return "launch_problem";
}

void write_preflight_text(std::ostream& out, const PreflightReport& rep) {
  out << job_header_line(rep.job, "preflight") << "\n#\n";
  write_rank_lines(out, rep);
  out << "#\n";
  write_summary(out, rep);
  out << "# verdict: " << verdict_line(rep) << "\n";
  out.flush();
}

}  // namespace collbench::report
