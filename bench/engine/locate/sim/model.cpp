#include "bench/engine/locate/sim/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace collbench::engine::locate::sim {
namespace {

using Json = nlohmann::json;

Status bad(const std::string& where, const std::string& why) {
  return Status::error(ErrorCode::kUsage, "simulation model: " + where + ": " + why);
}

Status only_keys(const Json& j, const std::string& where, const std::set<std::string>& known) {
  for (const auto& [key, value] : j.items()) {
    if (!known.contains(key)) return bad(where.empty() ? key : where + "." + key, "unknown key");
  }
  return ok_status();
}

Result<double> number(const Json& j, const std::string& where) {
  if (!j.is_number()) return bad(where, "expected a number, found " + std::string(j.type_name()));
  const double v = j.get<double>();
  if (!std::isfinite(v)) return bad(where, "not finite");
  return v;
}

Result<int> whole(const Json& j, const std::string& where) {
  if (!j.is_number_integer()) return bad(where, "expected a whole number, found " + std::string(j.type_name()));
  const auto v = j.get<std::int64_t>();
  if (v < 0 || v > std::numeric_limits<int>::max()) return bad(where, "out of range");
  return static_cast<int>(v);
}

// Reads an optional key into `out` when present.
template <typename T, typename Read>
Status optional(const Json& j, const char* key, const std::string& where, T& out, Read read) {
  const auto it = j.find(key);
  if (it == j.end()) return ok_status();
  COLLBENCH_ASSIGN_OR_RETURN(out, read(*it, where.empty() ? std::string(key) : where + "." + key));
  return ok_status();
}

Status read_shape(const Json& j, NetworkShape& s) {
  if (!j.contains("hosts")) return bad("hosts", "missing (how many hosts the cluster has)");
  COLLBENCH_RETURN_IF_ERROR(optional(j, "hosts", "", s.hosts, whole));
  COLLBENCH_RETURN_IF_ERROR(optional(j, "ranks_per_host", "", s.ranks_per_host, whole));
  COLLBENCH_RETURN_IF_ERROR(optional(j, "nic_gbps", "", s.nic_gbps, number));
  COLLBENCH_RETURN_IF_ERROR(optional(j, "intra_host_gbps", "", s.intra_host_gbps, number));
  COLLBENCH_RETURN_IF_ERROR(optional(j, "hosts_per_leaf", "", s.hosts_per_leaf, whole));
  COLLBENCH_RETURN_IF_ERROR(optional(j, "uplink_gbps", "", s.uplink_gbps, number));
  return optional(j, "latency_us", "", s.latency_us, number);
}

Status read_noise(const Json& j, NoiseModel& n) {
  if (!j.is_object()) return bad("noise", "expected an object");
  COLLBENCH_RETURN_IF_ERROR(only_keys(j, "noise", {"sigma", "spike_probability", "spike_factor"}));
  COLLBENCH_RETURN_IF_ERROR(optional(j, "sigma", "noise", n.sigma, number));
  COLLBENCH_RETURN_IF_ERROR(optional(j, "spike_probability", "noise", n.spike_probability, number));
  COLLBENCH_RETURN_IF_ERROR(optional(j, "spike_factor", "noise", n.spike_factor, number));
  if (n.sigma < 0 || n.sigma > 2) return bad("noise.sigma", "must be in [0, 2]");
  if (n.spike_probability < 0 || n.spike_probability > 1) return bad("noise.spike_probability", "must be in [0, 1]");
  if (n.spike_factor < 1) return bad("noise.spike_factor", "must be 1 or more");
  return ok_status();
}

Status read_fault(const Json& f, const std::string& where, SimModel& m) {
  if (!f.is_object() || !f.contains("kind") || !f.at("kind").is_string()) {
    return bad(where, "expected an object with a \"kind\"");
  }
  const std::string kind = f.at("kind").get<std::string>();
  const auto required = [&](const char* key) -> Result<const Json*> {
    const auto it = f.find(key);
    if (it == f.end()) return bad(where + "." + key, "missing (a " + kind + " fault needs it)");
    return &*it;
  };
  // The key that says where each kind of fault is; every kind but cpu_starved has a factor.
  static const std::map<std::string, std::string> kTarget = {{"slow_host", "host"},
                                                             {"cpu_starved", "host"},
                                                             {"slow_nic", "rank"},
                                                             {"slow_link", "hosts"},
                                                             {"slow_uplink", "leaf"}};
  const auto target = kTarget.find(kind);
  if (target == kTarget.end()) {
    return bad(where + ".kind", "'" + kind + "' (kinds: slow_host, slow_nic, slow_link, slow_uplink, cpu_starved)");
  }
  const std::string amount = kind == "cpu_starved" ? "late_us" : "factor";
  COLLBENCH_RETURN_IF_ERROR(only_keys(f, where, {"kind", target->second, amount}));
  double factor = 1;
  if (kind != "cpu_starved") {
    COLLBENCH_ASSIGN_OR_RETURN(const Json* fj, required("factor"));
    COLLBENCH_ASSIGN_OR_RETURN(factor, number(*fj, where + ".factor"));
  }
  if (kind == "slow_host" || kind == "cpu_starved") {
    COLLBENCH_ASSIGN_OR_RETURN(const Json* hj, required("host"));
    COLLBENCH_ASSIGN_OR_RETURN(const int host, whole(*hj, where + ".host"));
    if (kind == "slow_host") {
      m.faults.host[host] = factor;
      return ok_status();
    }
    COLLBENCH_ASSIGN_OR_RETURN(const Json* lj, required("late_us"));
    COLLBENCH_ASSIGN_OR_RETURN(const double late, number(*lj, where + ".late_us"));
    if (late <= 0) return bad(where + ".late_us", "must be positive");
    if (host >= m.shape.hosts) return bad(where + ".host", "host " + std::to_string(host) + " is not in the cluster");
    m.cpu_starved_late_us[host] = late;
    return ok_status();
  }
  if (kind == "slow_nic") {
    COLLBENCH_ASSIGN_OR_RETURN(const Json* rj, required("rank"));
    COLLBENCH_ASSIGN_OR_RETURN(const int rank, whole(*rj, where + ".rank"));
    m.faults.nic[rank] = factor;
    return ok_status();
  }
  if (kind == "slow_uplink") {
    COLLBENCH_ASSIGN_OR_RETURN(const Json* lj, required("leaf"));
    COLLBENCH_ASSIGN_OR_RETURN(const int leaf, whole(*lj, where + ".leaf"));
    m.faults.uplink[leaf] = factor;
    return ok_status();
  }
  // slow_link, the last kind of kTarget.
  COLLBENCH_ASSIGN_OR_RETURN(const Json* hj, required("hosts"));
  if (!hj->is_array() || hj->size() != 2) return bad(where + ".hosts", "expected two hosts");
  COLLBENCH_ASSIGN_OR_RETURN(const int a, whole((*hj)[0], where + ".hosts[0]"));
  COLLBENCH_ASSIGN_OR_RETURN(const int b, whole((*hj)[1], where + ".hosts[1]"));
  if (a == b) return bad(where + ".hosts", "two different hosts");
  m.faults.link[{std::min(a, b), std::max(a, b)}] = factor;
  return ok_status();
}

}  // namespace

Result<SimModel> parse_sim_model(std::string_view json_text) {
  const Json doc = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return bad("the file", "not valid JSON");
  if (!doc.is_object()) return bad("the file", "expected an object");
  COLLBENCH_RETURN_IF_ERROR(only_keys(doc, "",
                                      {"hosts", "ranks_per_host", "nic_gbps", "intra_host_gbps", "hosts_per_leaf",
                                       "uplink_gbps", "latency_us", "noise", "faults", "seed"}));
  SimModel m;
  COLLBENCH_RETURN_IF_ERROR(read_shape(doc, m.shape));
  if (const auto it = doc.find("noise"); it != doc.end()) COLLBENCH_RETURN_IF_ERROR(read_noise(*it, m.noise));
  if (const auto it = doc.find("seed"); it != doc.end()) {
    if (!it->is_number_unsigned()) return bad("seed", "expected a whole number of 0 or more");
    m.seed = it->get<std::uint64_t>();
  }
  if (const auto it = doc.find("faults"); it != doc.end()) {
    if (!it->is_array()) return bad("faults", "expected a list");
    for (std::size_t i = 0; i < it->size(); ++i) {
      COLLBENCH_RETURN_IF_ERROR(read_fault((*it)[i], "faults[" + std::to_string(i) + "]", m));
    }
  }
  COLLBENCH_RETURN_IF_ERROR(Network::make(m.shape, m.faults).status());
  return m;
}

}  // namespace collbench::engine::locate::sim
