#include "bench/cli/wiring/host_topology.hpp"

#include <cstdlib>

#include "topo/analysis.hpp"
#include "topo/discover.hpp"
#include "topo/json.hpp"

namespace collbench::cli {

Result<topo::Topology> discover_this_host(const std::string& host) {
  const char* file = std::getenv("COLLBENCH_TOPOLOGY_FILE");
  if (file == nullptr || file[0] == '\0') return topo::discover_live();
  auto t = topo::load_topology_file(file);
  if (!t.ok()) {
    return Status::error(t.status().code(), "COLLBENCH_TOPOLOGY_FILE: " + t.status().message());
  }
  t->host = host;
  return t;
}

Result<std::vector<HostTopology>> gather_host_topologies(bootstrap::Bootstrap& boot, const std::string& host,
                                                         std::vector<std::string>& failures) {
  std::string mine;
  if (boot.local_rank() == 0) {
    auto live = discover_this_host(host);
    if (live.ok()) {
      const topo::Analysis analysis = topo::analyze(*live);
      mine = topo::topology_to_json(*live, &analysis, -1);
    } else {
      mine = "!" + host + ": " + live.status().message();  // '!' marks a failure report
    }
  }
  COLLBENCH_ASSIGN_OR_RETURN(auto all, bootstrap::allgather_strings(boot, mine));
  std::vector<HostTopology> out;
  if (boot.rank() != 0) return out;
  for (const auto& text : all) {
    if (text.empty()) continue;
    if (text.front() == '!') {
      failures.push_back(text.substr(1));
      continue;
    }
    auto model = topo::topology_from_json(text, "a gathered topology");
    if (!model.ok()) {
      failures.push_back(model.status().message());
      continue;
    }
    const std::string name = model->host.empty() ? "host " + std::to_string(out.size()) : model->host;
    out.push_back({name, text, std::move(model).value()});
  }
  return out;
}

}  // namespace collbench::cli
