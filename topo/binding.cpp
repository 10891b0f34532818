#include "topo/binding.hpp"

#include <sched.h>

#include <cerrno>
#include <cstring>

#include "topo/analysis.hpp"

namespace collbench::topo {
namespace {

IndexSet usable(const Topology& topo, const IndexSet& cpus) {
  return topo.allowed_cpus.empty() ? cpus : cpus.intersection(topo.allowed_cpus);
}

}  // namespace

Result<BindingChoice> choose_binding(const Topology& topo, const std::string& pci_bus_id, int local_rank) {
  if (!pci_bus_id.empty()) {
    const int gpu = topo.gpu_by_bus_id(pci_bus_id);
    if (gpu < 0)
      return Status::error(ErrorCode::kUnsupported, "--bind: GPU " + pci_bus_id + " is not in this host's topology");
    const Analysis analysis = analyze(topo);
    const auto& a = analysis.affinity[static_cast<std::size_t>(gpu)];
    const IndexSet cpus = usable(topo, a.cpus);
    if (cpus.empty())
      return Status::error(ErrorCode::kUnsupported, "--bind: no usable CPU is local to GPU " + pci_bus_id);
    return BindingChoice{cpus, "CPUs local to GPU " + pci_bus_id + " (NUMA " + a.numa_nodes.to_list() + ")"};
  }
  if (topo.numa_nodes.empty()) return Status::error(ErrorCode::kUnsupported, "--bind: no NUMA node was discovered");
  const auto& node = topo.numa_nodes[static_cast<std::size_t>(local_rank) % topo.numa_nodes.size()];
  const IndexSet cpus = usable(topo, node.cpus);
  if (cpus.empty()) return Status::error(ErrorCode::kUnsupported, "--bind: NUMA node has no usable CPU");
  return BindingChoice{cpus, "NUMA node " + std::to_string(node.os_index) + " (host memory, local rank " +
                                 std::to_string(local_rank) + ")"};
}

Status bind_to(const IndexSet& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (std::uint32_t cpu : cpus.indices()) {
    if (cpu < CPU_SETSIZE) CPU_SET(cpu, &set);
  }
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    return Status::error(ErrorCode::kUnsupported,
                         "--bind: sched_setaffinity(" + cpus.to_list() + ") failed: " + std::strerror(errno));
  }
  return ok_status();
}

}  // namespace collbench::topo
