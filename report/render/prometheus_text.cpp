#include "report/render/prometheus_text.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

struct Sample {
  Labels labels;
  double value = 0;
};

struct Family {
  std::string name;
  std::string help;
  std::vector<Sample> samples;
};

// HELP text escapes backslash and newline only.
std::string escape_help(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// Go's ParseFloat reads "NaN", "+Inf" and "-Inf"; finite values in their shortest exact form.
std::string value_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return format_shortest(v);
}

void append(std::string& out, const Family& f) {
  if (f.samples.empty()) return;
  out += "# HELP " + f.name + " " + escape_help(f.help) + "\n";
  out += "# TYPE " + f.name + " gauge\n";
  for (const auto& s : f.samples) {
    out += f.name;
    if (!s.labels.empty()) {
      out += "{";
      for (std::size_t i = 0; i < s.labels.size(); ++i) {
        out += (i == 0 ? "" : ",") + s.labels[i].first + "=\"" + escape_label_value(s.labels[i].second) + "\"";
      }
      out += "}";
    }
    out += " " + value_text(s.value) + "\n";
  }
}

std::string host_of(const RunContext& c) {
  if (!c.ranks.empty()) return c.ranks.front().host;
  return c.hosts.empty() ? std::string() : c.hosts.front();
}

// "2026-12-03T19:57:21Z" as seconds since the epoch; nullopt for anything else.
std::optional<double> epoch_seconds(const std::string& iso) {
  if (iso.size() != 20 || iso[4] != '-' || iso[7] != '-' || iso[10] != 'T' || iso[13] != ':' || iso[16] != ':' ||
      iso[19] != 'Z') {
    return std::nullopt;
  }
  const auto field = [&](std::size_t at, std::size_t len) -> std::optional<int> {
    int v = 0;
    const auto [end, ec] = std::from_chars(iso.data() + at, iso.data() + at + len, v);
    if (ec != std::errc() || end != iso.data() + at + len) return std::nullopt;
    return v;
  };
  const auto y = field(0, 4), mo = field(5, 2), d = field(8, 2), h = field(11, 2), mi = field(14, 2), s = field(17, 2);
  if (!y || !mo || !d || !h || !mi || !s || *h > 23 || *mi > 59 || *s > 60) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year{*y}, std::chrono::month{static_cast<unsigned>(*mo)},
                                         std::chrono::day{static_cast<unsigned>(*d)}};
  if (!date.ok()) return std::nullopt;
  const auto days = std::chrono::sys_days{date}.time_since_epoch().count();
  return static_cast<double>(days) * 86400.0 + *h * 3600.0 + *mi * 60.0 + *s;
}

struct Series {
  Labels labels;
  Measurement measurement;
};

// One entry per (collective, dtype, op, root, size, placement), in order of first appearance,
// holding the last measurement of it (-N repeats rows).
std::vector<Series> distinct_series(const std::vector<SizeRecord>& rows, const std::string& host) {
  std::vector<Series> out;
  std::map<Labels, std::size_t> index;
  for (const auto& row : rows) {
    for (const auto& m : row.placements) {
      Labels labels = {{"host", host},
                       {"collective", row.collective},
                       {"dtype", row.dtype},
                       {"op", row.op},
                       {"root", row.root < 0 ? std::string() : std::to_string(row.root)},
                       {"size_bytes", std::to_string(row.size_bytes)},
                       {"placement", to_string(m.placement)}};
      const auto [it, inserted] = index.emplace(labels, out.size());
      if (inserted) out.push_back({std::move(labels), m});
      else out[it->second].measurement = m;
    }
  }
  return out;
}

std::vector<Family> measurement_families(const std::vector<Series>& series, const std::string& prefix) {
  Family busbw{prefix + "busbw_gbytes_per_second",
               "Bus bandwidth (nccl-tests' busbw) in GB/s (1e9 bytes per second).",
               {}};
  Family algbw{prefix + "algbw_gbytes_per_second",
               "Algorithm bandwidth (nccl-tests' algbw) in GB/s (1e9 bytes per second).",
               {}};
  Family time{prefix + "time_seconds", "Headline time of one collective call (nccl-tests' time) in seconds.", {}};
  Family wrong{prefix + "wrong_elements", "Wrong elements found by the data check, summed over ranks.", {}};
  for (const auto& s : series) {
    const Measurement& m = s.measurement;
    busbw.samples.push_back({s.labels, m.busbw_gbps});
    algbw.samples.push_back({s.labels, m.algbw_gbps});
    time.samples.push_back({s.labels, m.time_us / 1e6});
    if (m.checked) wrong.samples.push_back({s.labels, static_cast<double>(m.wrong)});
  }
  return {busbw, algbw, time, wrong};
}

std::size_t failed_expectations(const RunSummary& s) {
  std::size_t failed = 0;
  for (const auto& e : s.expectations) failed += e.passed ? 0U : 1U;
  return failed;
}

std::string joined_hosts(const RunContext& c) {
  std::string out;
  for (const auto& h : c.hosts) out += (out.empty() ? "" : ",") + h;
  return out;
}

std::vector<Family> run_families(const RunDocument& d, const std::string& host, const std::string& prefix) {
  const RunSummary& s = d.summary;
  const Labels at = {{"host", host}};
  const bool ok = s.status == RunStatus::kOk && s.total_wrong == 0 && failed_expectations(s) == 0;
  std::vector<Family> out = {
      {prefix + "run_ok",
       "1 when the run ended ok, with no wrong element and no failed expectation; else 0 (status: the run's status).",
       {{{{"host", host}, {"status", to_string(s.status)}}, ok ? 1.0 : 0.0}}},
      {prefix + "avg_busbw_gbytes_per_second",
       "Average bus bandwidth of the run (nccl-tests' Avg bus bandwidth) in GB/s.",
       {{at, s.avg_busbw_gbps}}},
      {prefix + "peak_busbw_gbytes_per_second", "Highest bus bandwidth of the run in GB/s.", {{at, s.peak_busbw_gbps}}},
      {prefix + "run_wrong_elements",
       "Wrong elements of the whole run, summed over rows, placements and ranks.",
       {{at, static_cast<double>(s.total_wrong)}}},
      {prefix + "run_end_timestamp_seconds", "When the run ended, in seconds since the Unix epoch.", {}},
      {prefix + "run_ranks", "Ranks of the run.", {{at, static_cast<double>(d.context.nranks)}}},
      {prefix + "run_info",
       "Always 1: what ran, as labels (hosts: every host of the job, comma-separated).",
       {{{{"host", host},
          {"hosts", joined_hosts(d.context)},
          {"backend", d.context.backend},
          {"bootstrap", d.context.bootstrap},
          {"memory", d.context.memory},
          {"version", d.context.tool_version}},
         1.0}}},
  };
  if (const auto end = epoch_seconds(s.end_time)) out[4].samples.push_back({at, *end});
  if (!s.expectations.empty()) {
    out.push_back({prefix + "expectations",
                   "Expectations checked (run --expect).",
                   {{at, static_cast<double>(s.expectations.size())}}});
    out.push_back({prefix + "expectations_failed",
                   "Expectations that failed or were not measured (run --expect).",
                   {{at, static_cast<double>(failed_expectations(s))}}});
  }
  return out;
}

}  // namespace

std::string escape_label_value(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string health_prometheus_text(const HealthReport& report, const std::string& end_time) {
  Family ok{"collbench_health_ok", "1 when collbench health found nothing wrong with this host; else 0.", {}};
  Family findings{"collbench_health_findings", "Findings of collbench health on this host, per check.", {}};
  constexpr HealthCheck kChecks[] = {HealthCheck::kPreflight, HealthCheck::kData, HealthCheck::kTopology,
                                     HealthCheck::kExpectation};
  for (const auto& h : report.hosts) {
    ok.samples.push_back({{{"host", h.host}}, h.passed() ? 1.0 : 0.0});
    for (const HealthCheck check : kChecks) {
      const auto n = std::count_if(h.findings.begin(), h.findings.end(),
                                   [check](const HealthFinding& f) { return f.check == check; });
      findings.samples.push_back({{{"host", h.host}, {"check", to_string(check)}}, static_cast<double>(n)});
    }
  }
  const Labels at = {{"host", report.hosts.empty() ? std::string() : report.hosts.front().host}};
  Family job{"collbench_health_job_ok",
             "1 when every host of the health check and the job as a whole passed; else 0.",
             {{at, report.passed() ? 1.0 : 0.0}}};
  Family end{"collbench_health_end_timestamp_seconds",
             "When the health check ended, in seconds since the Unix epoch.",
             {}};
  if (const auto seconds = epoch_seconds(end_time)) end.samples.push_back({at, *seconds});
  std::string out;
  for (const auto& f : {ok, findings, job, end}) append(out, f);
  return out;
}

std::string prometheus_text(const RunDocument& document, std::string_view prefix) {
  const std::string host = host_of(document.context);
  const std::string names(prefix);
  std::string out;
  for (const auto& f : measurement_families(distinct_series(document.rows, host), names)) append(out, f);
  for (const auto& f : run_families(document, host, names)) append(out, f);
  return out;
}

}  // namespace collbench::report
