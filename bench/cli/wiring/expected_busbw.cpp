#include "bench/cli/wiring/expected_busbw.hpp"

#include <sstream>
#include <string>

#include "bench/engine/memory_probe.hpp"
#include "common/units.hpp"
#include "topo/busbw_bound.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

constexpr int kProbeRepeats = 3;

// "host=GB/s" from local rank 0 of each host on host memory; "" from the others.
std::string probe_this_host(const bootstrap::Bootstrap& boot, const report::RunContext& context) {
  if (context.memory != "host" || boot.local_rank() != 0) return {};
  const double gbps = engine::measure_copy_gbps(engine::copy_probe_bytes(topo::last_level_cache_bytes()),
                                                kProbeRepeats);
  const auto& me = context.ranks.at(static_cast<std::size_t>(boot.rank()));
  return me.host + "=" + std::to_string(gbps);
}

// Rank 0: the bound from every host's topology and copy probe.
report::ExpectedBusbw compute(const report::RunContext& context, const std::vector<HostTopology>& hosts,
                              const std::vector<std::string>& probes) {
  std::vector<topo::HostLinks> links;
  for (const auto& name : context.hosts) {
    topo::HostLinks h{name, nullptr, 0};
    for (const auto& t : hosts) {
      if (t.host == name) h.topology = &t.model;
    }
    for (const auto& p : probes) {
      const auto eq = p.rfind('=');
      if (eq == std::string::npos || p.substr(0, eq) != name) continue;
      const auto gbps = parse_double(p.substr(eq + 1));
      if (gbps.ok()) h.memory_copy_gbps = *gbps;
    }
    links.push_back(h);
  }
  std::vector<topo::RankPlace> ranks;
  for (const auto& r : context.ranks) ranks.push_back({r.host, r.device == "cpu" ? std::string() : r.pci_bus_id});
  const topo::BusbwBound bound = topo::busbw_bound(links, ranks);
  return report::ExpectedBusbw{bound.gbps, bound.bottleneck};
}

}  // namespace

Result<report::ExpectedBusbw> agree_expected_busbw(bootstrap::Bootstrap& boot, const report::RunContext& context,
                                                   const std::vector<HostTopology>& hosts) {
  COLLBENCH_ASSIGN_OR_RETURN(const auto probes, bootstrap::allgather_strings(boot, probe_this_host(boot, context)));
  report::ExpectedBusbw bound;
  if (boot.rank() == 0) bound = compute(context, hosts, probes);
  // "GB/s bottleneck", from rank 0 to every rank.
  std::ostringstream shared;
  shared.precision(17);
  shared << bound.gbps << ' ' << bound.bottleneck;
  COLLBENCH_ASSIGN_OR_RETURN(const std::string text, bootstrap::broadcast_string(boot, shared.str()));
  const auto space = text.find(' ');
  const auto gbps = parse_double(text.substr(0, space));
  return report::ExpectedBusbw{gbps.ok() ? *gbps : 0, space == std::string::npos ? "" : text.substr(space + 1)};
}

}  // namespace collbench::cli
