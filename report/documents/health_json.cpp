#include "report/documents/health_json.hpp"

#include "common/exit_code.hpp"
#include "report/documents/json_internal.hpp"

namespace collbench::report {
namespace {

Json findings_json(const std::vector<HealthFinding>& findings) {
  Json list = Json::array();
  for (const auto& f : findings) {
    list.push_back({{"check", to_string(f.check)},
                    {"exit_code", static_cast<int>(exit_code_for(Status::error(f.code, f.message)))},
                    {"message", f.message}});
  }
  return list;
}

Json topology_json(const TopologyCheck& t) {
  Json differing = Json::array();
  for (const auto& d : t.differing) differing.push_back({{"host", d.host}, {"differences", d.differences}});
  return {{"checked", t.checked},
          {"reference", t.checked ? Json(t.reference) : Json(nullptr)},
          {"not_checked_why", t.checked ? Json(nullptr) : Json(t.not_checked_why)},
          {"differing", differing}};
}

}  // namespace

std::string health_json_text(const HealthReport& rep) {
  Json hosts = Json::array();
  for (const auto& h : rep.hosts) {
    hosts.push_back({{"host", h.host},
                     {"ranks", h.ranks},
                     {"verdict", h.passed() ? "pass" : "fail"},
                     {"findings", findings_json(h.findings)}});
  }
  Json expectations = Json::array();
  for (const auto& r : rep.expectations) expectations.push_back(expectation_json(r));
  const Json doc = {{"schema", kHealthSchemaName},
                    {"schema_version", kHealthSchemaVersion},
                    {"context", job_header_json(rep.job)},
                    {"hosts", hosts},
                    {"job_findings", findings_json(rep.job_findings)},
                    {"sweep",
                     {{"ran", rep.sweep_ran},
                      {"not_run_why", rep.sweep_ran ? Json(nullptr) : Json(rep.sweep_not_run_why)},
                      {"avg_busbw_gbps", rep.sweep_ran ? real(rep.avg_busbw_gbps) : Json(nullptr)}}},
                    {"topology", topology_json(rep.topology)},
                    {"expectations", expectations},
                    {"verdict", rep.passed() ? "pass" : "fail"}};
  // Host names come from the machines: invalid UTF-8 is replaced, never an exception.
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace collbench::report
