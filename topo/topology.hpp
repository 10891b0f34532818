// The machine as plain values: packages, NUMA nodes, the PCI tree, GPUs, NICs and NVLinks.
// No hwloc, NVML or NCCL types appear here, so reports, tests and the CLI can use it freely and
// a topology read from a file is indistinguishable from one discovered live.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topo/index_set.hpp"

namespace collbench::topo {

enum class SourceKind { kLive, kHwlocXml, kNcclXml, kJson };
std::string_view to_string(SourceKind kind);  // "live", "hwloc-xml", "nccl-xml", "json"
std::optional<SourceKind> source_kind_from_string(std::string_view text);

struct Package {
  std::uint32_t os_index = 0;
  IndexSet cpus;
  IndexSet numa_nodes;
  std::string model;  // "Intel(R) Xeon(R) Platinum 8174 CPU @ 3.10GHz" when known
};

struct NumaNode {
  std::uint32_t os_index = 0;
  IndexSet cpus;
  std::uint64_t memory_bytes = 0;  // 0 when unknown
};

// One PCIe link as seen from the device below it. Zero means unknown.
struct PciLink {
  double gbps = 0;  // current data rate, GB/s in each direction (lane rate x width x encoding)
  double gts = 0;   // current per-lane transfer rate, GT/s
  int width = 0;    // current lanes
  double max_gbps = 0;
  double max_gts = 0;
  int max_width = 0;

  // What the link carries when busy: the current width at the maximum speed when both are
  // known (idle GPUs lower their link speed to save power, their width stays), else `gbps`.
  double busy_gbps() const;
};

enum class PciKind { kHostBridge, kBridge, kDevice };
std::string_view to_string(PciKind kind);  // "host_bridge", "bridge", "device"

struct PciNode {
  PciKind kind = PciKind::kDevice;
  int parent = -1;            // index in Topology::pci; -1 when it hangs off the CPU side
  std::vector<int> children;  // filled by finalize()
  std::string bus_id;         // "0000:34:00.0"; empty for host bridges
  std::string bus_range;      // bridges: the buses below, "0000:[2b-3b]"
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;
  std::uint16_t subvendor_id = 0;
  std::uint16_t subdevice_id = 0;
  std::uint16_t class_id = 0;  // base class << 8 | subclass: 0x0302 3D controller, 0x0604 bridge
  std::string subtype;         // "NVSwitch" when known
  std::string name;            // vendor's device name when known
  PciLink link;                // the link to the parent
  // Whether `link` is a physical link of the path: false for downstream-facing ports (root
  // ports, switch downstream ports), whose link is the one their child reports.
  bool upstream_link = true;
  // Bridges this node stands for on a path: 1 per port (hwloc), 2 for one NCCL <pci> switch.
  int bridge_weight = 1;
  IndexSet cpus;                        // locality: CPUs of the nearest CPU-side ancestor (set by finalize())
  IndexSet numa_nodes;                  // locality: its NUMA nodes (OS indices)
  std::vector<std::string> os_devices;  // "mlx5_0", "ib0", "nvml0", "nvme0n1"
};

struct Gpu {
  int pci = -1;  // index in Topology::pci
  std::string bus_id;
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;
  std::string name;  // "Tesla V100-SXM3-32GB-H" when known
  std::string uuid;  // when known
  std::vector<std::string> os_devices;
};

enum class NicKind { kInfiniband, kRoce, kEfa, kOmniPath, kEthernet, kOther };
std::string_view to_string(NicKind kind);  // "infiniband", "roce", "efa", "omnipath", "ethernet", "other"
std::optional<NicKind> nic_kind_from_string(std::string_view text);
bool is_rdma(NicKind kind);

struct NicPort {
  int number = 1;
  std::string state;       // "ACTIVE", "DOWN", "up", ...; empty when unknown
  double rate_gbps = 0;    // Gb/s (network convention); 0 when unknown
  std::string link_layer;  // "InfiniBand", "Ethernet"; empty when unknown
};

struct Nic {
  int pci = -1;
  std::string bus_id;
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;
  NicKind kind = NicKind::kOther;
  std::string name;         // RDMA device ("mlx5_0", "rdmap197s0") or else the interface ("eth0")
  std::string description;  // "Elastic Fabric Adapter (EFA)" when known
  std::vector<std::string> os_devices;
  std::vector<NicPort> ports;
};

struct NvLink {
  int gpu_a = 0;  // GPU indices, gpu_a < gpu_b
  int gpu_b = 0;
  int links = 0;
  double gbps = 0;  // GB/s per direction, all links together
  bool via_nvswitch = false;
};

enum class NvLinkSource { kNone, kHwloc, kNvml, kNcclXml };
std::string_view to_string(NvLinkSource source);  // "none", "hwloc", "nvml", "nccl-xml"
std::optional<NvLinkSource> nvlink_source_from_string(std::string_view text);

struct NvLinkInfo {
  NvLinkSource source = NvLinkSource::kNone;
  std::string note;           // why there is no information, or caveats of the source
  std::vector<NvLink> pairs;  // pairs with at least one link
  const NvLink* find(int gpu_a, int gpu_b) const;
};

struct Topology {
  std::string host;
  SourceKind source = SourceKind::kLive;
  std::string origin;        // file path, or "live"
  std::string tool_version;  // "hwloc 2.9.0", "NCCL topology XML version 1"
  std::vector<Package> packages;
  std::vector<NumaNode> numa_nodes;
  IndexSet cpus;          // every CPU of the machine
  IndexSet allowed_cpus;  // CPUs this process (or the capture's cgroup) may use; empty if unknown
  IndexSet allowed_numa_nodes;
  std::vector<PciNode> pci;
  std::vector<Gpu> gpus;  // in PCI bus id order; GPU k is gpus[k]
  std::vector<Nic> nics;  // in PCI bus id order, then name
  NvLinkInfo nvlink;
  std::vector<std::string> warnings;
  // What the input lacks that a reader would otherwise miss ("the file has no I/O objects").
  std::vector<std::string> notes;

  int gpu_by_bus_id(std::string_view bus_id) const;  // -1 when absent
  int nic_by_name(std::string_view name) const;      // -1 when absent
  int pci_by_bus_id(std::string_view bus_id) const;  // -1 when absent
};

// "0000:34:00.0" in lower case from "34:00.0", "00000000:34:00.0" or upper case; nullopt if the
// text is not a PCI address.
std::optional<std::string> normalize_bus_id(std::string_view text);

// PCIe data rate per direction in GB/s for a lane rate in GT/s (encoding overhead included).
double pcie_gbps(double gts, int width);

// A rate in hundredths, for comparisons that must not see float noise. Saturates at +-1e15 and
// reads NaN as 0: a capture may claim any number, and llround of an out-of-range value (then
// negated for a descending sort) would be undefined.
long long hundredths(double value);

// "8 GT/s x16 (15.75 GB/s)", "15.75 GB/s" or "unknown", for the current or the maximum link.
std::string describe_link(const PciLink& link, bool maximum = false);
// The GPU or NIC at Topology::pci[index]: its place, bus id and identity. Each source adds
// what it knows beside them (names, devices, ports).
Gpu gpu_at_pci(const Topology& topo, int index);
Nic nic_at_pci(const Topology& topo, int index);

// "GPU3", "NIC2"; and a NIC's name, else its bus id, else "NIC2".
std::string gpu_label(int index);
std::string nic_label(int index);
std::string nic_display_name(const Topology& topo, int index);
// A short number for people: "15.75", "150", "0.5".
std::string format_gbps(double gbps);

// Makes a topology self-consistent after a source filled it: children lists, locality copied
// from each top-level PCI node to its descendants, GPUs and NICs sorted by bus id, duplicate
// bus ids and dangling indices turned into warnings. Sources call it before adding NVLinks.
void finalize(Topology& topo);

}  // namespace collbench::topo
