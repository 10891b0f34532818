#include "report/documents/locate_json.hpp"

#include <cmath>

#include "report/documents/json_internal.hpp"
#include "report/documents/json_layout.hpp"

namespace collbench::report {
namespace {

// Wide enough for a comparison figure with its details and recheck on one line.
constexpr std::size_t kLocateLineWidth = 600;

// A figure that may not exist (a finding without a reference): null.
Json optional_real(double v) { return std::isnan(v) ? Json(nullptr) : real(v); }

Json optional_text(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

Json rank_json(const LocateRank& r) {
  return {{"rank", r.rank},
          {"host", r.host},
          {"local_rank", r.local_rank},
          {"device", r.device},
          {"device_name", r.device_name},
          {"pci_bus_id", r.pci_bus_id},
          {"gpu", optional_text(r.gpu)},
          {"nic", optional_text(r.nic)},
          {"switch", optional_text(r.leaf)}};
}

Json budget_json(const LocateReport& rep) {
  Json phases = Json::array();
  for (const auto& p : rep.phases) {
    phases.push_back({{"name", p.name},
                      {"status", p.status},
                      {"planned_s", real(p.planned_s)},
                      {"spent_s", real(p.spent_s)},
                      {"note", p.note}});
  }
  return {{"requested_s", real(rep.budget_s)}, {"spent_s", real(rep.spent_s)}, {"phases", phases}};
}

Json measurements_json(const LocateReport& rep) {
  Json sizes = Json::array();
  for (const auto& s : rep.all_reduce) {
    sizes.push_back({{"size_bytes", s.size_bytes},
                     {"iterations", s.iterations},
                     {"time_us", real(s.time_us)},
                     {"busbw_gbps", real(s.busbw_gbps)}});
  }
  Json pairs = Json::array();
  for (const auto& p : rep.pairs) {
    pairs.push_back({{"a", p.a},
                     {"b", p.b},
                     {"class", p.inter_host ? "inter_host" : "intra_host"},
                     {"round", p.round},
                     {"passes", p.passes},
                     {"iterations", p.iterations},
                     {"time_us", real(p.time_us)},
                     {"gbps", real(p.gbps)}});
  }
  Json groups = Json::array();
  for (const auto& g : rep.groups) {
    groups.push_back({{"kind", g.kind},
                      {"label", g.label},
                      {"ranks", g.ranks},
                      {"iterations", g.iterations},
                      {"time_us", real(g.time_us)},
                      {"gbps", real(g.gbps)}});
  }
  return {{"all_reduce", sizes},
          {"pairs",
           {{"size_bytes", rep.pair_bytes},
            {"rounds", rep.pair_rounds},
            {"passes", rep.pair_passes},
            {"rounds_measured", rep.pair_steps_measured},
            {"pairs", pairs}}},
          {"groups", {{"size_bytes", rep.group_bytes}, {"groups", groups}}}};
}

Json figure_json(const LocateFigure& f) {
  Json details = Json::object();
  for (const auto& d : f.details) details[d.name] = real(d.value);
  const auto judged = [&](double v) { return f.judged ? real(v) : Json(nullptr); };
  return {{"label", f.label},
          {"ranks", f.ranks},
          {"hosts", f.hosts},
          {"value", real(f.value)},
          {"details", details},
          {"judged", f.judged},
          {"set_aside", optional_text(f.set_aside)},
          {"reference", judged(f.reference)},
          {"spread", judged(f.spread)},
          {"distance_mads", judged(f.distance_mads)},
          {"gap", judged(f.gap)},
          {"outlier", f.outlier},
          {"recheck", optional_text(to_string(f.recheck))}};
}

Json comparison_json(const LocateComparison& c) {
  Json figures = Json::array();
  for (const auto& f : c.figures) figures.push_back(figure_json(f));
  return {{"name", c.name}, {"phase", c.phase},       {"subject", c.subject}, {"metric", c.metric},
          {"unit", c.unit}, {"compared", c.compared}, {"note", c.note},       {"figures", figures}};
}

Json evidence_json(const LocateEvidence& e) {
  return {{"figure", e.figure},
          {"comparison", e.comparison},
          {"metric", e.metric},
          {"unit", e.unit},
          {"value", real(e.value)},
          {"reference", optional_real(e.reference)},
          {"distance_mads", optional_real(e.distance_mads)},
          {"gap", optional_real(e.gap)}};
}

Json finding_json(const LocateFinding& f) {
  Json evidence = Json::array();
  for (const auto& e : f.evidence) evidence.push_back(evidence_json(e));
  return {{"subject", f.subject},
          {"label", f.label},
          {"ranks", f.ranks},
          {"hosts", f.hosts},
          {"comparison", f.comparison},
          {"metric", f.metric},
          {"unit", f.unit},
          {"value", real(f.value)},
          {"reference", optional_real(f.reference)},
          {"distance_mads", optional_real(f.distance_mads)},
          {"gap", optional_real(f.gap)},
          {"evidence", evidence},
          {"cause", f.cause.empty() ? Json(nullptr) : Json(f.cause)}};
}

Json cpu_json(const LocateCpu& c) {
  return {{"rank", c.rank},
          {"involuntary_switches", real(c.involuntary_switches)},
          {"steal_share", optional_real(c.steal_share)}};
}

}  // namespace

std::string locate_json_text(const LocateReport& rep) {
  Json ranks = Json::array();
  for (const auto& r : rep.ranks) ranks.push_back(rank_json(r));
  Json comparisons = Json::array();
  for (const auto& c : rep.comparisons) comparisons.push_back(comparison_json(c));
  Json findings = Json::array();
  for (const auto& f : rep.findings) findings.push_back(finding_json(f));
  Json cpu = Json::array();
  for (const auto& c : rep.cpu) cpu.push_back(cpu_json(c));
  const Json doc = {{"schema", kLocateSchemaName},
                    {"schema_version", kLocateSchemaVersion},
                    {"context", job_header_json(rep.job)},
                    {"ranks", ranks},
                    {"budget", budget_json(rep)},
                    {"rule",
                     {{"threshold_mads", real(rep.rule.threshold_mads)},
                      {"mad_floor", real(rep.rule.mad_floor)},
                      {"min_gap", real(rep.rule.min_gap)},
                      {"decisive_gap", real(rep.rule.decisive_gap)},
                      {"decisive_mads", real(rep.rule.decisive_mads)},
                      {"decisive_others", rep.rule.decisive_others}}},
                    {"measurements", measurements_json(rep)},
                    {"comparisons", comparisons},
                    {"findings", findings},
                    {"cpu", cpu},
                    {"verdict", to_string(rep.verdict)},
                    {"notes", rep.notes}};
  return dump_lines(doc, kLocateLineWidth);
}

}  // namespace collbench::report
