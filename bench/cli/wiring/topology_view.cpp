#include "bench/cli/wiring/topology_view.hpp"

#include <optional>
#include <string>

#include "topo/analysis.hpp"
#include "topo/json.hpp"
#include "topo/paths.hpp"

namespace collbench::cli {
namespace {

const std::vector<std::string>& legend() {
  static const std::vector<std::string> kLegend = {"X = self",
                                                   "NV# = a bonded set of # NVLinks",
                                                   "PIX = at most one PCIe bridge",
                                                   "PXB = several PCIe bridges",
                                                   "PHB = through a PCIe host bridge (the CPU)",
                                                   "NODE = between PCIe host bridges of one NUMA node",
                                                   "SYS = across NUMA nodes (QPI/UPI, Infinity Fabric)"};
  return kLegend;
}

// GPUs first, then NICs; the path between devices a and b of that list.
const topo::Path& path(const topo::PathMatrix& m, std::size_t gpus, std::size_t a, std::size_t b) {
  if (a < gpus && b < gpus) return m.gpu_gpu[a][b];
  if (a < gpus) return m.gpu_nic[a][b - gpus];
  if (b < gpus) return m.gpu_nic[b][a - gpus];
  return m.nic_nic[a - gpus][b - gpus];
}

// The GPUs of `host` that the run's ranks used, by PCI bus id.
std::vector<int> used_gpus(const topo::Topology& t, const report::RunContext& context, const std::string& host) {
  std::vector<int> used;
  for (const auto& rank : context.ranks) {
    if (rank.host != host || rank.pci_bus_id.empty()) continue;
    const auto bus = topo::normalize_bus_id(rank.pci_bus_id);
    const int gpu = bus ? t.gpu_by_bus_id(*bus) : -1;
    if (gpu >= 0) used.push_back(gpu);
  }
  return used;
}

void set_bottleneck(report::TopologyMatrix& m, const topo::PathMatrix& paths, const std::vector<int>& gpus) {
  std::optional<double> slowest;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    for (std::size_t j = i + 1; j < gpus.size(); ++j) {
      const topo::Path& p = paths.gpu_gpu[static_cast<std::size_t>(gpus[i])][static_cast<std::size_t>(gpus[j])];
      if (p.gbps() <= 0 || (slowest && p.gbps() >= *slowest)) continue;
      slowest = p.gbps();
      m.bottleneck_link = topo::smi_name(p) + " between " + topo::gpu_label(gpus[i]) + " and " +
                          topo::gpu_label(gpus[j]);
    }
  }
  m.bottleneck_link_gbps = slowest;
}

report::TopologyMatrix view_of(const std::string& host, const std::string& json, const report::RunContext& context) {
  report::TopologyMatrix m;
  m.host = host;
  auto parsed = topo::topology_from_json(json, "the run file's topology of " + host);
  if (!parsed.ok()) {
    m.legend = {"topology not readable: " + parsed.status().message()};
    return m;
  }
  const topo::Topology& t = *parsed;
  const topo::Analysis analysis = topo::analyze(t);
  const std::size_t gpus = t.gpus.size();
  for (std::size_t i = 0; i < gpus; ++i) m.labels.push_back(topo::gpu_label(static_cast<int>(i)));
  for (std::size_t i = 0; i < t.nics.size(); ++i) m.labels.push_back(topo::nic_label(static_cast<int>(i)));
  for (std::size_t a = 0; a < m.labels.size(); ++a) {
    m.cells.emplace_back();
    for (std::size_t b = 0; b < m.labels.size(); ++b)
      m.cells.back().push_back(topo::smi_name(path(analysis.paths, gpus, a, b)));
  }
  if (m.labels.empty()) {
    m.legend = {"no GPU or NIC in this host's topology"};
    return m;
  }
  m.legend = legend();
  for (std::size_t i = 0; i < t.nics.size(); ++i) {
    m.legend.push_back(topo::nic_label(static_cast<int>(i)) + " = " + topo::nic_display_name(t, static_cast<int>(i)));
  }
  // The slowest GPU link bounds a one-host collective; across hosts the network does.
  if (context.hosts.size() == 1) set_bottleneck(m, analysis.paths, used_gpus(t, context, host));
  return m;
}

}  // namespace

std::vector<report::TopologyMatrix> topology_views(const report::RunContext& context) {
  std::vector<report::TopologyMatrix> views;
  for (const auto& [host, json] : context.topologies) views.push_back(view_of(host, json, context));
  return views;
}

}  // namespace collbench::cli
