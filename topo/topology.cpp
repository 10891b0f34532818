#include "topo/topology.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <utility>

namespace collbench::topo {
namespace {

template <typename Enum, std::size_t N>
std::optional<Enum> enum_from(std::string_view text, const std::array<std::pair<Enum, std::string_view>, N>& table) {
  for (const auto& [value, name] : table) {
    if (name == text) return value;
  }
  return std::nullopt;
}

template <typename Enum, std::size_t N>
std::string_view enum_name(Enum value, const std::array<std::pair<Enum, std::string_view>, N>& table) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "unknown";
}

constexpr std::array<std::pair<SourceKind, std::string_view>, 4> kSourceNames{{
    {SourceKind::kLive, "live"},
    {SourceKind::kHwlocXml, "hwloc-xml"},
    {SourceKind::kNcclXml, "nccl-xml"},
    {SourceKind::kJson, "json"},
}};

constexpr std::array<std::pair<PciKind, std::string_view>, 3> kPciKindNames{{
    {PciKind::kHostBridge, "host_bridge"},
    {PciKind::kBridge, "bridge"},
    {PciKind::kDevice, "device"},
}};

constexpr std::array<std::pair<NicKind, std::string_view>, 6> kNicKindNames{{
    {NicKind::kInfiniband, "infiniband"},
    {NicKind::kRoce, "roce"},
    {NicKind::kEfa, "efa"},
    {NicKind::kOmniPath, "omnipath"},
    {NicKind::kEthernet, "ethernet"},
    {NicKind::kOther, "other"},
}};

constexpr std::array<std::pair<NvLinkSource, std::string_view>, 4> kNvLinkSourceNames{{
    {NvLinkSource::kNone, "none"},
    {NvLinkSource::kHwloc, "hwloc"},
    {NvLinkSource::kNvml, "nvml"},
    {NvLinkSource::kNcclXml, "nccl-xml"},
}};

bool parse_hex(std::string_view text, unsigned long max, unsigned long& out) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return ec == std::errc() && end == text.data() + text.size() && out <= max;
}

void propagate_locality(Topology& topo) {
  // Parents precede children in every source, but do not rely on it: walk to the top each time.
  for (PciNode& node : topo.pci) {
    int top = -1;
    std::size_t steps = 0;
    for (int at = node.parent; at >= 0 && steps <= topo.pci.size();
         at = topo.pci[static_cast<std::size_t>(at)].parent) {
      top = at;
      ++steps;
    }
    if (top < 0) continue;
    const PciNode& root = topo.pci[static_cast<std::size_t>(top)];
    node.cpus = root.cpus;
    node.numa_nodes = root.numa_nodes;
  }
}

void check_parents(Topology& topo) {
  const int n = static_cast<int>(topo.pci.size());
  for (int i = 0; i < n; ++i) {
    PciNode& node = topo.pci[static_cast<std::size_t>(i)];
    if (node.parent >= n || node.parent == i) {
      topo.warnings.push_back("PCI node " + std::to_string(i) + " has an invalid parent; treated as top-level");
      node.parent = -1;
    }
  }
  // A cycle would make every walk loop: break it at the node where it is found.
  for (int i = 0; i < n; ++i) {
    int at = i;
    for (int steps = 0; at >= 0; ++steps) {
      if (steps > n) {
        topo.pci[static_cast<std::size_t>(i)].parent = -1;
        topo.warnings.push_back("PCI tree has a cycle at node " + std::to_string(i) + "; cut there");
        break;
      }
      at = topo.pci[static_cast<std::size_t>(at)].parent;
    }
  }
  for (PciNode& node : topo.pci) node.children.clear();
  for (int i = 0; i < n; ++i) {
    const int parent = topo.pci[static_cast<std::size_t>(i)].parent;
    if (parent >= 0) topo.pci[static_cast<std::size_t>(parent)].children.push_back(i);
  }
}

void warn_duplicate_bus_ids(Topology& topo) {
  std::map<std::string, int> seen;
  for (const PciNode& node : topo.pci) {
    if (node.bus_id.empty()) continue;
    if (++seen[node.bus_id] == 2) {
      topo.warnings.push_back("PCI bus id " + node.bus_id +
                              " appears more than once (edited or merged capture?); lookups by bus id use the first");
    }
  }
}

template <typename Device>
void drop_dangling(std::vector<Device>& devices, const Topology& topo, const char* what,
                   std::vector<std::string>& warnings) {
  const auto bad = [&](const Device& d) { return d.pci < 0 || d.pci >= static_cast<int>(topo.pci.size()); };
  const auto count = std::count_if(devices.begin(), devices.end(), bad);
  if (count == 0) return;
  warnings.push_back(std::to_string(count) + " " + what + " without a PCI node were dropped");
  devices.erase(std::remove_if(devices.begin(), devices.end(), bad), devices.end());
}

}  // namespace

std::string_view to_string(SourceKind kind) { return enum_name(kind, kSourceNames); }
std::optional<SourceKind> source_kind_from_string(std::string_view text) { return enum_from(text, kSourceNames); }
std::string_view to_string(PciKind kind) { return enum_name(kind, kPciKindNames); }
std::string_view to_string(NicKind kind) { return enum_name(kind, kNicKindNames); }
std::optional<NicKind> nic_kind_from_string(std::string_view text) { return enum_from(text, kNicKindNames); }
std::string_view to_string(NvLinkSource source) { return enum_name(source, kNvLinkSourceNames); }
std::optional<NvLinkSource> nvlink_source_from_string(std::string_view text) {
  return enum_from(text, kNvLinkSourceNames);
}

bool is_rdma(NicKind kind) {
  return kind == NicKind::kInfiniband || kind == NicKind::kRoce || kind == NicKind::kEfa || kind == NicKind::kOmniPath;
}

const NvLink* NvLinkInfo::find(int gpu_a, int gpu_b) const {
  if (gpu_a > gpu_b) std::swap(gpu_a, gpu_b);
  for (const NvLink& link : pairs) {
    if (link.gpu_a == gpu_a && link.gpu_b == gpu_b) return &link;
  }
  return nullptr;
}

int Topology::gpu_by_bus_id(std::string_view bus_id) const {
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    if (gpus[i].bus_id == bus_id) return static_cast<int>(i);
  }
  return -1;
}

int Topology::nic_by_name(std::string_view name) const {
  for (std::size_t i = 0; i < nics.size(); ++i) {
    if (nics[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int Topology::pci_by_bus_id(std::string_view bus_id) const {
  for (std::size_t i = 0; i < pci.size(); ++i) {
    if (pci[i].bus_id == bus_id) return static_cast<int>(i);
  }
  return -1;
}

std::optional<std::string> normalize_bus_id(std::string_view text) {
  // [domain:]bus:device.function, all hex.
  const auto dot = text.rfind('.');
  const auto last_colon = text.rfind(':');
  if (dot == std::string_view::npos || last_colon == std::string_view::npos || dot < last_colon) return std::nullopt;
  const auto first_colon = text.find(':');
  unsigned long domain = 0, bus = 0, dev = 0, fn = 0;
  if (first_colon != last_colon && !parse_hex(text.substr(0, first_colon), 0xffffffff, domain)) return std::nullopt;
  const auto bus_start = first_colon == last_colon ? 0 : first_colon + 1;
  if (!parse_hex(text.substr(bus_start, last_colon - bus_start), 0xff, bus) ||
      !parse_hex(text.substr(last_colon + 1, dot - last_colon - 1), 0x1f, dev) ||
      !parse_hex(text.substr(dot + 1), 0x7, fn) || domain > 0xffff) {
    return std::nullopt;
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04lx:%02lx:%02lx.%lx", domain, bus, dev, fn);
  return std::string(buf);
}

double pcie_gbps(double gts, int width) {
  if (gts <= 0 || width <= 0) return 0;
  // 8b/10b up to 5 GT/s, 128b/130b for 8-32 GT/s, FLIT mode (242/256) from 64 GT/s on.
  const double efficiency = gts <= 5.0 ? 0.8 : gts < 64.0 ? 128.0 / 130.0 : 242.0 / 256.0;
  return gts * efficiency * width / 8.0;
}

long long hundredths(double value) {
  constexpr double kLimit = 1e15;
  if (std::isnan(value)) return 0;
  return std::llround(std::clamp(value * 100.0, -kLimit, kLimit));
}

double PciLink::busy_gbps() const {
  if (width > 0 && max_gts > gts) return pcie_gbps(max_gts, width);
  return gbps;
}

std::string format_gbps(double gbps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", gbps);
  std::string text = buf;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string describe_link(const PciLink& link, bool maximum) {
  const double gbps = maximum ? link.max_gbps : link.gbps;
  const double gts = maximum ? link.max_gts : link.gts;
  const int width = maximum ? link.max_width : link.width;
  std::string out;
  if (gts > 0) out += format_gbps(gts) + " GT/s";
  if (width > 0) out += (out.empty() ? "x" : " x") + std::to_string(width);
  if (gbps > 0) out += out.empty() ? format_gbps(gbps) + " GB/s" : " (" + format_gbps(gbps) + " GB/s)";
  return out.empty() ? "unknown" : out;
}

namespace {

// Gpu and Nic name their PCI place and identity alike.
template <typename Device>
Device device_at_pci(const Topology& topo, int index) {
  const PciNode& node = topo.pci[static_cast<std::size_t>(index)];
  Device d;
  d.pci = index;
  d.bus_id = node.bus_id;
  d.vendor_id = node.vendor_id;
  d.device_id = node.device_id;
  return d;
}

}  // namespace

Gpu gpu_at_pci(const Topology& topo, int index) { return device_at_pci<Gpu>(topo, index); }
Nic nic_at_pci(const Topology& topo, int index) { return device_at_pci<Nic>(topo, index); }

std::string gpu_label(int index) { return "GPU" + std::to_string(index); }
std::string nic_label(int index) { return "NIC" + std::to_string(index); }

std::string nic_display_name(const Topology& topo, int index) {
  if (index < 0 || index >= static_cast<int>(topo.nics.size())) return "none";
  const Nic& nic = topo.nics[static_cast<std::size_t>(index)];
  if (!nic.name.empty()) return nic.name;
  return nic.bus_id.empty() ? nic_label(index) : nic.bus_id;
}

void finalize(Topology& topo) {
  check_parents(topo);
  propagate_locality(topo);
  warn_duplicate_bus_ids(topo);
  drop_dangling(topo.gpus, topo, "GPUs", topo.warnings);
  drop_dangling(topo.nics, topo, "NICs", topo.warnings);
  std::stable_sort(topo.gpus.begin(), topo.gpus.end(), [](const Gpu& a, const Gpu& b) { return a.bus_id < b.bus_id; });
  std::stable_sort(topo.nics.begin(), topo.nics.end(),
                   [](const Nic& a, const Nic& b) { return std::tie(a.bus_id, a.name) < std::tie(b.bus_id, b.name); });
  std::sort(topo.numa_nodes.begin(), topo.numa_nodes.end(),
            [](const NumaNode& a, const NumaNode& b) { return a.os_index < b.os_index; });
  std::sort(topo.packages.begin(), topo.packages.end(),
            [](const Package& a, const Package& b) { return a.os_index < b.os_index; });
  if (topo.cpus.empty()) {
    for (const NumaNode& node : topo.numa_nodes) topo.cpus = topo.cpus.union_with(node.cpus);
  }
}

}  // namespace collbench::topo
