#include <algorithm>
#include <cstdio>

#include "common/strings.hpp"
#include "common/text_table.hpp"
#include "common/units.hpp"
#include "topo/format.hpp"

namespace collbench::topo {
namespace {

constexpr const char* kLegend =
    "Legend:\n"
    "\n"
    "  X    = Self\n"
    "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)\n"
    "  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node\n"
    "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n"
    "  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)\n"
    "  PIX  = Connection traversing at most a single PCIe bridge\n"
    "  NV#  = Connection traversing a bonded set of # NVLinks\n";

constexpr const char* kNcclLegend =
    "NCCL path types: LOC = self, NVL = NVLink (direct or through NVSwitch), NVB = NVLink through another GPU,\n"
    "PIX/PXB/PHB as above (NCCL counts NODE as PHB), SYS = across NUMA nodes. C2C, P2C, PXN and NET need NCCL's\n"
    "run-time view and are not computed here.\n";

std::string header(const Topology& topo) {
  std::string out;
  out += "Host: " + (topo.host.empty() ? std::string("(unknown)") : topo.host) + "\n";
  out += "Source: " + std::string(to_string(topo.source));
  if (topo.source != SourceKind::kLive) out += " " + topo.origin;
  if (!topo.tool_version.empty()) out += " (" + topo.tool_version + ")";
  out += "\n";
  out += "Packages: " + std::to_string(topo.packages.size()) +
         ", NUMA nodes: " + std::to_string(topo.numa_nodes.size()) + ", CPUs: " + std::to_string(topo.cpus.size()) +
         ", GPUs: " + std::to_string(topo.gpus.size()) + ", NICs: " + std::to_string(topo.nics.size()) + "\n";
  out += "NVLink: " + std::string(to_string(topo.nvlink.source));
  if (!topo.nvlink.note.empty()) out += " (" + topo.nvlink.note + ")";
  out += "\n";
  for (const std::string& note : topo.notes) out += "Note: " + note + "\n";
  return out;
}

std::vector<std::string> column_labels(const Topology& topo) {
  std::vector<std::string> labels;
  for (std::size_t g = 0; g < topo.gpus.size(); ++g) labels.push_back(gpu_label(static_cast<int>(g)));
  for (std::size_t n = 0; n < topo.nics.size(); ++n) labels.push_back(nic_label(static_cast<int>(n)));
  return labels;
}

std::string nccl_matrix(const Topology& topo, const Analysis& a) {
  TableRows rows;
  std::vector<std::string> head{""};
  for (const std::string& l : column_labels(topo)) head.push_back(l);
  rows.push_back(head);
  for (std::size_t g = 0; g < topo.gpus.size(); ++g) {
    std::vector<std::string> row{gpu_label(static_cast<int>(g))};
    for (const Path& p : a.paths.gpu_gpu[g]) row.emplace_back(nccl_name(p));
    for (const Path& p : a.paths.gpu_nic[g]) row.emplace_back(nccl_name(p));
    rows.push_back(row);
  }
  return render_text_table(rows);
}

std::string gpu_table(const Topology& topo, const Analysis& a) {
  TableRows rows{{"GPU", "Bus id", "Model", "NUMA", "CPUs", "Nearest NIC", "Path", "GB/s", "NCCL's NIC", ""}};
  for (const GpuAffinity& g : a.affinity) {
    const Gpu& gpu = topo.gpus[static_cast<std::size_t>(g.gpu)];
    const bool has_nic = g.nic >= 0;
    std::string flags;
    if (g.no_local_nic) flags = has_nic ? "no local NIC" : "no NIC";
    if (g.equally_close.size() > 1)
      flags += std::string(flags.empty() ? "" : "; ") + std::to_string(g.equally_close.size()) + " equally close";
    rows.push_back({gpu_label(g.gpu), gpu.bus_id, gpu.name.empty() ? "-" : gpu.name,
                    g.numa_nodes.empty() ? "-" : g.numa_nodes.to_list(), g.cpus.empty() ? "-" : g.cpus.to_list(),
                    has_nic ? nic_display_name(topo, g.nic) : "-", has_nic ? smi_name(g.nic_path) : "-",
                    has_nic && g.nic_path.pci_gbps > 0 ? format_gbps(g.nic_path.pci_gbps) : "-",
                    g.nccl_nic >= 0 ? nic_display_name(topo, g.nccl_nic) : "-", flags});
  }
  return render_text_table(rows);
}

std::string ports_text(const Nic& nic) {
  std::vector<std::string> parts;
  for (const NicPort& p : nic.ports) {
    std::string text = std::to_string(p.number) + ":";
    if (!p.state.empty()) text += " " + p.state;
    if (p.rate_gbps > 0) text += " " + format_gbps(p.rate_gbps) + " Gb/s";
    if (!p.link_layer.empty()) text += " " + p.link_layer;
    parts.push_back(text);
  }
  return parts.empty() ? "-" : join(parts, ", ");
}

std::string nic_table(const Topology& topo) {
  TableRows rows{{"NIC", "Name", "Kind", "Bus id", "NUMA", "PCIe link", "Ports", "Description"}};
  for (std::size_t i = 0; i < topo.nics.size(); ++i) {
    const Nic& nic = topo.nics[i];
    const PciNode& node = topo.pci[static_cast<std::size_t>(nic.pci)];
    rows.push_back({nic_label(static_cast<int>(i)), nic_display_name(topo, static_cast<int>(i)),
                    std::string(to_string(nic.kind)), nic.bus_id.empty() ? "-" : nic.bus_id,
                    node.numa_nodes.empty() ? "-" : node.numa_nodes.to_list(), describe_link(node.link),
                    ports_text(nic), nic.description.empty() ? "-" : nic.description});
  }
  return render_text_table(rows);
}

std::string numa_table(const Topology& topo) {
  TableRows rows{{"NUMA", "CPUs", "Memory"}};
  for (const NumaNode& n : topo.numa_nodes) {
    rows.push_back({std::to_string(n.os_index), n.cpus.empty() ? "-" : n.cpus.to_list(),
                    n.memory_bytes > 0 ? format_bytes(n.memory_bytes) : "-"});
  }
  return render_text_table(rows);
}

std::string binding(const Analysis& a) {
  std::string out = "Binding advice (one rank per GPU; append your command):\n";
  for (const GpuAffinity& g : a.affinity) {
    if (g.numactl.empty()) continue;
    out += "  " + gpu_label(g.gpu) + ": " + g.numactl + " <command>\n";
    out += "        mpirun -np 1 " + g.mpirun + " <command>\n";
  }
  if (!a.mpirun_mapping.empty()) out += "  all GPUs: " + a.mpirun_mapping + " <command>\n";
  return out;
}

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  for (std::string_view line : split(text, '\n')) {
    if (!line.empty()) out += prefix + std::string(line) + "\n";
  }
  return out;
}

}  // namespace

std::string format_matrix(const Topology& topo, const Analysis& a) {
  TableRows rows;
  std::vector<std::string> head{""};
  for (const std::string& l : column_labels(topo)) head.push_back(l);
  head.emplace_back("CPU Affinity");
  head.emplace_back("NUMA Affinity");
  rows.push_back(head);
  for (std::size_t g = 0; g < topo.gpus.size(); ++g) {
    std::vector<std::string> row{gpu_label(static_cast<int>(g))};
    for (const Path& p : a.paths.gpu_gpu[g]) row.push_back(smi_name(p));
    for (const Path& p : a.paths.gpu_nic[g]) row.push_back(smi_name(p));
    const GpuAffinity& aff = a.affinity[g];
    row.push_back(aff.cpus.empty() ? "N/A" : aff.cpus.to_list());
    row.push_back(aff.numa_nodes.empty() ? "N/A" : aff.numa_nodes.to_list());
    rows.push_back(row);
  }
  for (std::size_t n = 0; n < topo.nics.size(); ++n) {
    std::vector<std::string> row{nic_label(static_cast<int>(n))};
    for (std::size_t g = 0; g < topo.gpus.size(); ++g) row.push_back(smi_name(a.paths.gpu_nic[g][n]));
    for (const Path& p : a.paths.nic_nic[n]) row.push_back(smi_name(p));
    rows.push_back(row);
  }
  std::string out = topo.gpus.empty() && topo.nics.empty() ? "No GPUs and no NICs found.\n" : render_text_table(rows);
  out += "\n";
  out += kLegend;
  if (!topo.nics.empty()) {
    out += "\nNIC Legend:\n\n";
    for (std::size_t n = 0; n < topo.nics.size(); ++n) {
      out += "  " + nic_label(static_cast<int>(n)) + ": " + nic_display_name(topo, static_cast<int>(n)) + "\n";
    }
  }
  return out;
}

std::string format_text(const Topology& topo, const Analysis& a) {
  std::string out = header(topo) + "\n" + format_matrix(topo, a);
  if (!topo.gpus.empty()) out += "\nNCCL path types:\n\n" + indent(nccl_matrix(topo, a), "  ") + "\n" + kNcclLegend;
  if (!topo.numa_nodes.empty()) out += "\nNUMA nodes:\n\n" + indent(numa_table(topo), "  ");
  if (!topo.gpus.empty()) out += "\nGPU affinity and nearest NIC:\n\n" + indent(gpu_table(topo, a), "  ");
  if (!topo.nics.empty()) out += "\nNICs:\n\n" + indent(nic_table(topo), "  ");
  if (!a.affinity.empty()) out += "\n" + binding(a);
  if (!a.notes.empty()) {
    out += "\nNotes:\n";
    for (const std::string& note : a.notes) out += "  - " + note + "\n";
  }
  return out;
}

}  // namespace collbench::topo
