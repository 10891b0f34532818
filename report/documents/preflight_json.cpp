#include "report/documents/preflight_json.hpp"

#include "report/documents/json_internal.hpp"

namespace collbench::report {
namespace {

Json rank_json(const PreflightRank& r) {
  return {{"rank", r.rank},
          {"host", r.host},
          {"pid", r.pid},
          {"local_rank", r.local_rank},
          {"local_size", r.local_size},
          {"device", r.device},
          {"device_name", r.device_name},
          {"pci_bus_id", r.pci_bus_id},
          {"launcher_world_size", r.launcher_world_size >= 0 ? Json(r.launcher_world_size) : Json(nullptr)},
          {"visible_devices", r.visible_devices >= 0 ? Json(r.visible_devices) : Json(nullptr)},
          {"bootstrap_ms", r.bootstrap_ms},
          {"communicator_ms", r.communicator_ms},
          {"collective_ran", r.collective_ran},
          {"value", r.collective_ran ? Json(r.value) : Json(nullptr)},
          {"ok", r.value_ok},
          {"collective_us", r.collective_ran ? Json(r.collective_us) : Json(nullptr)}};
}

Json problem_json(const PreflightProblem& p) {
  return {{"severity", to_string(p.severity)},
          {"ranks", p.ranks},
          {"hosts", p.hosts},
          {"message", p.message},
          {"fix", p.fix}};
}

}  // namespace

std::string preflight_json_text(const PreflightReport& rep) {
  Json ranks = Json::array();
  for (const auto& r : rep.ranks) ranks.push_back(rank_json(r));
  Json problems = Json::array();
  for (const auto& p : rep.problems) problems.push_back(problem_json(p));
  const Json doc = {
      {"schema", kPreflightSchemaName},
      {"schema_version", kPreflightSchemaVersion},
      {"context", job_header_json(rep.job)},
      {"collective",
       {{"name", "all_reduce"}, {"dtype", "int64"}, {"op", "sum"}, {"input", "rank"}, {"expected", rep.expected}}},
      {"ranks", ranks},
      {"problems", problems},
      {"verdict", to_string(rep.verdict)}};
  // Host and device names come from the machines: invalid UTF-8 is replaced, never an exception.
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace collbench::report
