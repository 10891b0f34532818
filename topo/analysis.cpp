#include "topo/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace collbench::topo {
namespace {

std::string device_id_text(std::uint16_t vendor, std::uint16_t device) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04x:%04x", vendor, device);
  return buf;
}

bool slower(double a, double b) { return a > 0 && b > 0 && a < b * 0.99; }

// A link below what the device and its slot support.
void below_maximum(const PciLink& link, const std::string& who, std::vector<std::string>& notes) {
  if (link.width > 0 && link.max_width > 0 && link.width < link.max_width) {
    notes.push_back(who + ": PCIe link trained at x" + std::to_string(link.width) + " of x" +
                    std::to_string(link.max_width) + " (" + describe_link(link) + ", maximum " +
                    describe_link(link, true) + ")");
  } else if (link.gts > 0 && link.max_gts > 0 && link.gts < link.max_gts) {
    notes.push_back(who + ": PCIe link at " + format_gbps(link.gts) + " GT/s of " + format_gbps(link.max_gts) +
                    " GT/s (idle devices lower their speed to save power; check under load)");
  }
}

// Devices of one model should have the same link; name the slower ones.
template <typename Device>
void slower_than_peers(const Topology& topo, const std::vector<Device>& devices, const char* kind,
                       std::vector<std::string>& notes) {
  std::map<std::pair<std::uint16_t, std::uint16_t>, double> best;
  for (const Device& d : devices) {
    double& b = best[{d.vendor_id, d.device_id}];
    b = std::max(b, topo.pci[static_cast<std::size_t>(d.pci)].link.busy_gbps());
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const Device& d = devices[i];
    const PciLink& link = topo.pci[static_cast<std::size_t>(d.pci)].link;
    const double b = best[{d.vendor_id, d.device_id}];
    if (!slower(link.busy_gbps(), b)) continue;
    notes.push_back(std::string(kind) + std::to_string(i) + " (" + d.bus_id + "): PCIe link " + describe_link(link) +
                    " is slower than the " + format_gbps(b) + " GB/s of other " +
                    device_id_text(d.vendor_id, d.device_id) + " devices");
  }
}

void link_notes(const Topology& topo, std::vector<std::string>& notes) {
  for (std::size_t i = 0; i < topo.gpus.size(); ++i) {
    below_maximum(topo.pci[static_cast<std::size_t>(topo.gpus[i].pci)].link,
                  gpu_label(static_cast<int>(i)) + " (" + topo.gpus[i].bus_id + ")", notes);
  }
  for (std::size_t i = 0; i < topo.nics.size(); ++i) {
    below_maximum(topo.pci[static_cast<std::size_t>(topo.nics[i].pci)].link,
                  nic_label(static_cast<int>(i)) + " " + nic_display_name(topo, static_cast<int>(i)), notes);
  }
  slower_than_peers(topo, topo.gpus, "GPU", notes);
  slower_than_peers(topo, topo.nics, "NIC", notes);
}

void nic_notes(const Topology& topo, std::vector<std::string>& notes) {
  for (std::size_t i = 0; i < topo.nics.size(); ++i) {
    for (const NicPort& port : topo.nics[i].ports) {
      const std::string& s = port.state;
      if (s.empty() || s == "ACTIVE" || s == "ACTIVE_DEFER" || s == "up" || s == "unknown") continue;
      notes.push_back(nic_label(static_cast<int>(i)) + " " + nic_display_name(topo, static_cast<int>(i)) + " port " +
                      std::to_string(port.number) + " is " + s);
    }
  }
}

void affinity_notes(const Topology& topo, const std::vector<GpuAffinity>& affinity, std::vector<std::string>& notes) {
  for (const GpuAffinity& a : affinity) {
    const std::string who = gpu_label(a.gpu);
    if (!a.locality_known) notes.push_back(who + ": the input gives no CPU locality; all CPUs and NUMA nodes listed");
    if (a.nic >= 0 && a.no_local_nic) {
      notes.push_back(who + ": no NIC closer than SYS (nearest is " + nic_display_name(topo, a.nic) + ")");
    }
    if (a.nccl_nic >= 0 && a.nccl_nic != a.nic) {
      notes.push_back(who + ": NCCL's bandwidth-first rule would pick " + nic_display_name(topo, a.nccl_nic) +
                      " instead of " + nic_display_name(topo, a.nic));
    }
  }
}

}  // namespace

Analysis analyze(const Topology& topo) {
  Analysis out;
  out.paths = classify_all(topo);
  out.affinity = compute_affinity(topo, out.paths);
  out.mpirun_mapping = mpirun_mapping(topo, out.affinity);
  if (topo.gpus.empty()) out.notes.emplace_back("no GPUs found");
  if (topo.nics.empty()) out.notes.emplace_back("no NICs found");
  link_notes(topo, out.notes);
  nic_notes(topo, out.notes);
  affinity_notes(topo, out.affinity, out.notes);
  if (topo.nvlink.source == NvLinkSource::kNone && !topo.gpus.empty()) {
    out.notes.push_back(topo.nvlink.note.empty() ? "no NVLink info" : topo.nvlink.note);
  }
  for (const std::string& w : topo.warnings) out.notes.push_back("warning: " + w);
  return out;
}

}  // namespace collbench::topo
