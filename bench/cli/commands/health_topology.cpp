#include "bench/cli/commands/health_topology.hpp"

#include "common/strings.hpp"
#include "topo/compare.hpp"
#include "topo/discover.hpp"

namespace collbench::cli {

Result<std::optional<topo::Topology>> agree_reference(bootstrap::Bootstrap& boot, const std::string& path) {
  if (path.empty()) return std::optional<topo::Topology>();
  std::optional<topo::Topology> reference;
  std::string verdict = "ok";
  if (boot.rank() == 0) {
    auto loaded = topo::load_topology_file(path);
    if (loaded.ok()) {
      reference = std::move(*loaded);
    } else {
      verdict = loaded.status().message();
    }
  }
  COLLBENCH_ASSIGN_OR_RETURN(verdict, bootstrap::broadcast_string(boot, verdict));
  if (verdict != "ok") return Status::error(ErrorCode::kUsage, "--topo-reference: " + verdict);
  return reference;
}

report::TopologyCheck check_topologies(const std::vector<HostTopology>& hosts, const std::vector<std::string>& failures,
                                       const std::optional<topo::Topology>& reference,
                                       const std::string& reference_path) {
  report::TopologyCheck check;
  if (!failures.empty()) {
    check.not_checked_why = "discovery failed on " + join(failures, "; ");
    return check;
  }
  check.checked = true;
  if (reference) {
    check.reference = reference_path;
    for (const auto& h : hosts) {
      auto differences = topo::describe_differences(*reference, h.model);
      if (!differences.empty()) check.differing.push_back({h.host, std::move(differences)});
    }
    return check;
  }
  if (hosts.size() < 2) {
    check.checked = false;
    check.not_checked_why = "one host and no --topo-reference FILE";
    return check;
  }
  std::vector<topo::Topology> models;
  models.reserve(hosts.size());
  for (const auto& h : hosts) models.push_back(h.model);
  const topo::Comparison c = topo::compare_hosts(models);
  const std::size_t largest = c.groups.front().hosts.size();
  if (2 * largest <= hosts.size()) {
    check.reference = "each other (no majority)";
    check.job_problem = "no majority among the job's " + std::to_string(hosts.size()) +
                        " hosts: " + topo::format_comparison(c, models) + " (give --topo-reference FILE)";
    return check;
  }
  check.reference = "the majority of the job's hosts (" + std::to_string(largest) + " of " +
                    std::to_string(hosts.size()) + ")";
  for (std::size_t g = 1; g < c.groups.size(); ++g) {
    for (const auto& host : c.groups[g].hosts) check.differing.push_back({host, c.groups[g].differences});
  }
  return check;
}

}  // namespace collbench::cli
