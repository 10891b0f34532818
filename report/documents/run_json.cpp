#include "report/documents/run_json.hpp"

#include <cmath>
#include <exception>
#include <utility>

#include "report/documents/json_internal.hpp"
#include "report/documents/run_fields.hpp"

namespace collbench::report {
namespace {

// ---- writing ----

Json rank_json(const RankInfo& r) {
  return {{"rank", r.rank},
          {"host", r.host},
          {"pid", r.pid},
          {"local_rank", r.local_rank},
          {"device", r.device},
          {"device_name", r.device_name},
          {"pci_bus_id", r.pci_bus_id},
          {"device_memory_bytes", r.device_memory_bytes}};
}

Json context_json(const RunContext& c) {
  Json env = Json::object();
  for (const auto& [name, value] : c.env) env[name] = value;
  Json ranks = Json::array();
  for (const auto& r : c.ranks) ranks.push_back(rank_json(r));
  Json topology = Json::object();
  for (const auto& [host, text] : c.topologies) {
    auto parsed = parse_json_text(text);
    if (parsed.ok()) topology[host] = std::move(parsed).value();
  }
  Json context = {{"tool", {{"name", "collbench"}, {"version", c.tool_version}, {"git_commit", c.git_commit}}},
                  {"start_time", c.start_time},
                  {"argv", c.argv},
                  {"env", env},
                  {"bootstrap", c.bootstrap},
                  {"backend",
                   {{"name", c.backend},
                    {"library", c.backend_library},
                    {"memory", c.memory},
                    {"allocates_per_call", c.allocates_per_call}}},
                  {"nranks", c.nranks},
                  {"hosts", c.hosts},
                  {"ranks", ranks}};
  if (!topology.empty()) context["topology"] = std::move(topology);
  if (c.expected_busbw) {
    const ExpectedBusbw& e = *c.expected_busbw;
    context["expected_busbw"] = {{"gbps", e.gbps > 0 ? real(e.gbps) : Json(nullptr)}, {"bottleneck", e.bottleneck}};
  }
  return context;
}

Json precision_json(const PrecisionConfig& p) {
  return {{"min_time_s", real(p.min_time_s)},
          {"max_time_s", real(p.max_time_s)},
          {"target_spread", real(p.target_spread)},
          {"min_iterations", p.min_iterations},
          {"max_iterations", p.max_iterations}};
}

Json config_json(const RunConfig& c) {
  Json j = {{"collectives", c.collectives},
            {"dtypes", c.dtypes},
            {"ops", c.ops},
            {"root", c.root},
            {"min_bytes", c.min_bytes},
            {"max_bytes", c.max_bytes},
            {"step_factor", c.step_factor},
            {"step_bytes", c.step_bytes},
            {"iterations", c.iterations},
            {"warmup_iterations", c.warmup_iterations},
            {"check_iterations", c.check_iterations},
            {"average", c.average},
            {"blocking", c.blocking},
            {"run_cycles", c.run_cycles},
            {"timeout_s", real(c.timeout_s)},
            {"seed", c.seed},
            {"malloc_keep", c.malloc_keep},
            {"gpus_per_process", c.gpus_per_process},
            {"aggregation", c.aggregation},
            {"graph_launches", c.graph_launches},
            {"buffer_registration", c.buffer_registration},
            {"per_iteration_timing", c.per_iteration_timing},
            {"report_timestamps", c.report_timestamps}};
  if (c.precision) j["precision"] = precision_json(*c.precision);
  if (c.buffers) {
    j["buffers"] = {{"policy", to_string(c.buffers->policy)}, {"bytes_per_buffer", c.buffers->bytes_per_buffer}};
  }
  return j;
}

Json stats_json(const TimeStats& s) {
  return {{"samples", s.samples},
          {"mean_us", real(s.mean_us)},
          {"median_us", real(s.median_us)},
          {"min_us", real(s.min_us)},
          {"max_us", real(s.max_us)},
          {"p95_us", real(s.p95_us)},
          {"p99_us", real(s.p99_us)},
          {"stdev_us", real(s.stdev_us)},
          {"cv", real(s.cv)},
          {"median_ci95_rel", real(s.median_ci95_rel)},
          {"far_share", real(s.far_share)}};
}

Json record_key(const SizeRecord& r) {
  return {{"collective", r.collective}, {"dtype", r.dtype}, {"op", r.op}, {"root", r.root},
          {"size_bytes", r.size_bytes}, {"count", r.count}};
}

Json measurement_json(const SizeRecord& r, const Measurement& m) {
  Json mismatches = Json::array();
  for (const auto& x : m.mismatches) {
    mismatches.push_back(
        {{"rank", x.rank}, {"host", x.host}, {"index", x.index}, {"expected", real(x.expected)}, {"got", real(x.got)}});
  }
  Json j = record_key(r);
  j["placement"] = to_string(m.placement);
  j["iterations"] = m.iterations;
  j["time_us"] = real(m.time_us);
  j["stats"] = stats_json(m.per_iteration);
  j["algbw_gbps"] = real(m.algbw_gbps);
  j["busbw_gbps"] = real(m.busbw_gbps);
  j["checked"] = m.checked;
  j["wrong"] = m.wrong;
  j["mismatches"] = std::move(mismatches);
  j["slowest"] = {{"rank", m.slowest_rank}, {"host", m.slowest_host}, {"time_us", real(m.slowest_rank_time_us)}};
  return j;
}

Json results_json(const std::vector<SizeRecord>& rows) {
  Json results = Json::array();
  for (const auto& r : rows) {
    if (r.skipped) {
      Json j = record_key(r);
      j["skipped"] = *r.skipped;
      results.push_back(std::move(j));
      continue;
    }
    for (const auto& m : r.placements) results.push_back(measurement_json(r, m));
  }
  return results;
}

Json anomaly_json(const Anomaly& a) {
  return {{"collective", a.collective},
          {"dtype", a.dtype},
          {"op", a.op},
          {"root", a.root},
          {"size_bytes", a.size_bytes},
          {"sizes", a.sizes},
          {"placement", a.placement},
          {"kind", to_string(a.kind)},
          {"explained", a.explained},
          {"message", a.message}};
}

Json summary_json(const RunSummary& s) {
  Json anomalies = Json::array();
  for (const auto& a : s.anomalies) anomalies.push_back(anomaly_json(a));
  Json j = {{"status", to_string(s.status)},
            {"end_time", s.end_time},
            {"error", s.error ? Json(*s.error) : Json(nullptr)},
            {"peak_busbw_gbps", real(s.peak_busbw_gbps)},
            {"peak_size_bytes", s.peak_size_bytes},
            {"peak_placement", s.peak_placement.empty() ? Json(nullptr) : Json(s.peak_placement)},
            {"avg_busbw_gbps", real(s.avg_busbw_gbps)},
            {"total_wrong", s.total_wrong},
            {"out_of_bounds", s.out_of_bounds},
            {"anomalies", anomalies},
            {"max_rss_bytes", s.max_rss_bytes}};
  // Only runs with --expect carry verdicts: documents of other runs stay as they were.
  if (!s.expectations.empty()) {
    Json expectations = Json::array();
    for (const auto& r : s.expectations) expectations.push_back(expectation_json(r));
    j["expectations"] = std::move(expectations);
  }
  return j;
}

// ---- reading (the document has been validated, so types and enums are known good) ----

TimeStats stats_from(const Json& j) {
  TimeStats s;
  s.samples = j.at("samples").get<std::uint64_t>();
  s.mean_us = real_from(j.at("mean_us"));
  s.median_us = real_from(j.at("median_us"));
  s.min_us = real_from(j.at("min_us"));
  s.max_us = real_from(j.at("max_us"));
  s.p95_us = real_from(j.at("p95_us"));
  s.p99_us = real_from(j.at("p99_us"));
  if (const auto ci = j.find("median_ci95_rel"); ci != j.end()) s.median_ci95_rel = real_from(*ci);
  if (const auto far = j.find("far_share"); far != j.end()) s.far_share = real_from(*far);
  s.stdev_us = real_from(j.at("stdev_us"));
  s.cv = real_from(j.at("cv"));
  return s;
}

Measurement measurement_from(const Json& j) {
  Measurement m;
  m.placement = j.at("placement") == "in_place" ? Placement::kInPlace : Placement::kOutOfPlace;
  m.iterations = j.at("iterations").get<std::uint64_t>();
  m.time_us = real_from(j.at("time_us"));
  m.per_iteration = stats_from(j.at("stats"));
  m.algbw_gbps = real_from(j.at("algbw_gbps"));
  m.busbw_gbps = real_from(j.at("busbw_gbps"));
  m.checked = j.at("checked").get<bool>();
  m.wrong = j.at("wrong").get<std::uint64_t>();
  for (const auto& x : j.at("mismatches")) {
    m.mismatches.push_back({int_at(x, "rank"), x.at("host").get<std::string>(), x.at("index").get<std::uint64_t>(),
                            real_from(x.at("expected")), real_from(x.at("got"))});
  }
  const Json& slowest = j.at("slowest");
  m.slowest_rank = int_at(slowest, "rank");
  m.slowest_host = slowest.at("host").get<std::string>();
  m.slowest_rank_time_us = real_from(slowest.at("time_us"));
  return m;
}

SizeRecord key_from(const Json& j) {
  SizeRecord r;
  r.collective = j.at("collective").get<std::string>();
  r.dtype = j.at("dtype").get<std::string>();
  r.op = j.at("op").get<std::string>();
  r.root = int_at(j, "root");
  r.size_bytes = j.at("size_bytes").get<std::uint64_t>();
  r.count = j.at("count").get<std::uint64_t>();
  return r;
}

bool same_key(const SizeRecord& a, const SizeRecord& b) {
  return a.collective == b.collective && a.dtype == b.dtype && a.op == b.op && a.root == b.root &&
         a.size_bytes == b.size_bytes && a.count == b.count;
}

bool has_placement(const SizeRecord& r, Placement p) {
  for (const auto& m : r.placements) {
    if (m.placement == p) return true;
  }
  return false;
}

// A record joins the row before it when the key matches and its placement is new there.
std::vector<SizeRecord> rows_from(const Json& results) {
  std::vector<SizeRecord> rows;
  bool open = false;  // the last row holds measurements and may take another placement
  for (const auto& j : results) {
    SizeRecord key = key_from(j);
    if (j.contains("skipped")) {
      key.skipped = j.at("skipped").get<std::string>();
      rows.push_back(std::move(key));
      open = false;
      continue;
    }
    Measurement m = measurement_from(j);
    if (open && same_key(rows.back(), key) && !has_placement(rows.back(), m.placement)) {
      rows.back().placements.push_back(std::move(m));
      continue;
    }
    key.placements.push_back(std::move(m));
    rows.push_back(std::move(key));
    open = true;
  }
  return rows;
}

RunStatus status_from(const Json& j) {
  for (RunStatus s : {RunStatus::kOk, RunStatus::kWrongData, RunStatus::kIncomplete, RunStatus::kInterrupted,
                      RunStatus::kTimeout, RunStatus::kError}) {
    if (j == to_string(s)) return s;
  }
  return RunStatus::kError;
}

// The schema allows only the names of kAnomalyKinds.
AnomalyKind anomaly_kind_from(const Json& j) {
  for (const AnomalyKind k : kAnomalyKinds) {
    if (j == to_string(k)) return k;
  }
  return AnomalyKind::kDrop;
}

std::optional<std::string> optional_string_from(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<std::string>();
}

ExpectationResult expectation_from(const Json& j) {
  ExpectationResult r;
  Expectation& e = r.expectation;
  e.collective = j.at("collective").get<std::string>();
  e.size_bytes = j.at("size_bytes").get<std::uint64_t>();
  e.dtype = optional_string_from(j.at("dtype"));
  e.op = optional_string_from(j.at("op"));
  for (ExpectPlacement p : {ExpectPlacement::kBoth, ExpectPlacement::kOutOfPlace, ExpectPlacement::kInPlace}) {
    if (j.at("placement") == to_string(p)) e.placement = p;
  }
  for (ExpectBound b : {ExpectBound::kMinBusbw, ExpectBound::kMinAlgbw, ExpectBound::kMaxTime}) {
    if (j.at("bound") == to_string(b)) e.bound = b;
  }
  e.limit = real_from(j.at("limit"));
  if (const auto share = j.find("percent_of_bound"); share != j.end()) e.percent_of_bound = real_from(*share);
  r.measured = j.at("measured").get<bool>();
  if (!j.at("figure").is_null()) r.figure = real_from(j.at("figure"));
  if (!j.at("figure_placement").is_null()) r.placement = j.at("figure_placement").get<std::string>();
  r.passed = j.at("passed").get<bool>();
  r.message = j.at("message").get<std::string>();
  return r;
}

RunSummary summary_from(const Json& j) {
  RunSummary s;
  s.status = status_from(j.at("status"));
  s.end_time = j.at("end_time").get<std::string>();
  if (!j.at("error").is_null()) s.error = j.at("error").get<std::string>();
  s.peak_busbw_gbps = real_from(j.at("peak_busbw_gbps"));
  s.peak_size_bytes = j.at("peak_size_bytes").get<std::uint64_t>();
  if (!j.at("peak_placement").is_null()) s.peak_placement = j.at("peak_placement").get<std::string>();
  s.avg_busbw_gbps = real_from(j.at("avg_busbw_gbps"));
  s.total_wrong = j.at("total_wrong").get<std::uint64_t>();
  s.out_of_bounds = j.at("out_of_bounds").get<std::uint64_t>();
  if (const auto list = j.find("anomalies"); list != j.end()) {
    for (const auto& a : *list) {
      Anomaly x;
      x.collective = a.at("collective").get<std::string>();
      x.dtype = a.at("dtype").get<std::string>();
      x.op = a.at("op").get<std::string>();
      x.root = int_at(a, "root");
      x.size_bytes = a.at("size_bytes").get<std::uint64_t>();
      if (const auto sizes = a.find("sizes"); sizes != a.end()) x.sizes = sizes->get<std::vector<std::uint64_t>>();
      if (x.sizes.empty()) x.sizes = {x.size_bytes};
      x.placement = a.at("placement").get<std::string>();
      x.kind = anomaly_kind_from(a.at("kind"));
      if (const auto explained = a.find("explained"); explained != a.end()) x.explained = explained->get<bool>();
      x.message = a.at("message").get<std::string>();
      s.anomalies.push_back(std::move(x));
    }
  }
  if (const auto rss = j.find("max_rss_bytes"); rss != j.end()) s.max_rss_bytes = rss->get<std::uint64_t>();
  if (const auto list = j.find("expectations"); list != j.end()) {
    for (const auto& e : *list) s.expectations.push_back(expectation_from(e));
  }
  return s;
}

}  // namespace

std::string to_json_text(const RunDocument& document) {
  const Json j = {{"schema", kRunSchemaName},
                  {"schema_version", kRunSchemaVersion},
                  {"context", context_json(document.context)},
                  {"config", config_json(document.context.config)},
                  {"results", results_json(document.rows)},
                  {"summary", summary_json(document.summary)}};
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<RunDocument> parse_run_json(std::string_view text) {
  COLLBENCH_ASSIGN_OR_RETURN(const Json j, parse_json_text(text));
  COLLBENCH_RETURN_IF_ERROR(validate_run_value(j));
  try {
    RunDocument document;
    document.context = context_from(j.at("context"), j.at("config"), RunReading::kValidated);
    document.rows = rows_from(j.at("results"));
    document.summary = summary_from(j.at("summary"));
    return document;
  } catch (const std::exception& e) {
    // Only values the schema does not bound get here (an int field beyond the range of int).
    return Status::error(ErrorCode::kUsage, std::string("unreadable run document: ") + e.what());
  }
}

}  // namespace collbench::report
