// The only file that includes hwloc. It copies what the model needs out of an hwloc topology;
// every decision about paths and NICs is made later on the model, never on hwloc objects
// (hwloc_get_common_ancestor_obj crashes on PCI chains of different lengths).
#include "topo/hwloc_source.hpp"

#include <dlfcn.h>
#include <hwloc.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "common/strings.hpp"
#include "topo/host_info.hpp"
#include "topo/pci_ids.hpp"

namespace collbench::topo {
namespace {

using PciAttr = hwloc_obj_attr_u::hwloc_pcidev_attr_s;
using BridgeAttr = hwloc_obj_attr_u::hwloc_bridge_attr_s;

class TopologyHandle {
 public:
  TopologyHandle() = default;
  TopologyHandle(const TopologyHandle&) = delete;
  TopologyHandle& operator=(const TopologyHandle&) = delete;
  ~TopologyHandle() {
    if (initialized_) hwloc_topology_destroy(topo_);
  }
  Status init() {
    if (hwloc_topology_init(&topo_) != 0) return Status::error(ErrorCode::kInternal, "hwloc_topology_init failed");
    initialized_ = true;
    return ok_status();
  }
  hwloc_topology_t get() const { return topo_; }

 private:
  hwloc_topology_t topo_ = nullptr;
  bool initialized_ = false;
};

IndexSet from_bitmap(hwloc_const_bitmap_t bitmap) {
  std::vector<std::uint32_t> out;
  if (bitmap == nullptr) return IndexSet();
  // An infinite set (weight -1) only happens for "all"; keep its finite head.
  for (int i = hwloc_bitmap_first(bitmap); i >= 0 && static_cast<std::uint32_t>(i) <= IndexSet::kMaxIndex;
       i = hwloc_bitmap_next(bitmap, i)) {
    out.push_back(static_cast<std::uint32_t>(i));
  }
  return IndexSet(std::move(out));
}

std::string info(hwloc_obj_t obj, const char* name) {
  const char* value = hwloc_obj_get_info_by_name(obj, name);
  return value != nullptr ? value : "";
}

std::string bus_id_of(const PciAttr& pci) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%01x", static_cast<unsigned>(pci.domain),
                static_cast<unsigned>(pci.bus), static_cast<unsigned>(pci.dev), static_cast<unsigned>(pci.func));
  return buf;
}

std::string bus_range_of(const BridgeAttr& bridge) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%04x:[%02x-%02x]", static_cast<unsigned>(bridge.downstream.pci.domain),
                static_cast<unsigned>(bridge.downstream.pci.secondary_bus),
                static_cast<unsigned>(bridge.downstream.pci.subordinate_bus));
  return buf;
}

void copy_pci(const PciAttr& pci, PciNode& node) {
  node.bus_id = bus_id_of(pci);
  node.vendor_id = pci.vendor_id;
  node.device_id = pci.device_id;
  node.subvendor_id = pci.subvendor_id;
  node.subdevice_id = pci.subdevice_id;
  node.class_id = pci.class_id;
  // hwloc stores float GB/s; keep 2 decimals so that files and live runs compare equal.
  // A hand-edited file can hold any float there ("inf" or 1e90 read as infinity): unknown, 0.
  const double gbps = static_cast<double>(pci.linkspeed);
  node.link.gbps = std::isfinite(gbps) && gbps > 0 ? std::round(gbps * 100.0) / 100.0 : 0;
}

// hwloc stores osdev_type and bridge_type from an XML file into its enums unchecked (a C enum may
// hold any int). Loading such a value through the C++ enum type is undefined behaviour when it is
// outside the enumerators' range, so the raw integer is read instead.
template <typename Enum>
unsigned raw_enum(const Enum& value) {
  static_assert(sizeof(Enum) == sizeof(unsigned));
  unsigned raw = 0;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

struct OsDev {
  std::string name;
  unsigned type;  // hwloc_obj_osdev_type_t's value, read with raw_enum
  hwloc_obj_t obj;
};

class Converter {
 public:
  // `xml_format`: "hwloc 1.x XML" and the like, for the tool line of a file.
  explicit Converter(hwloc_topology_t t, std::string_view xml_format = {}) : t_(t), xml_format_(xml_format) {}

  Topology run(SourceKind source, const std::string& origin) {
    topo_.source = source;
    topo_.origin = origin;
    hwloc_obj_t root = hwloc_get_root_obj(t_);
    topo_.host = info(root, "HostName");
    if (topo_.host.empty() && source == SourceKind::kLive) topo_.host = host_name();
    const std::string writer = info(root, "hwlocVersion");
    topo_.tool_version = source == SourceKind::kLive
                             ? "hwloc " + hwloc_version_string()
                             : std::string(xml_format_) + (writer.empty() ? "" : " written by " + writer) +
                                   ", read by hwloc " + hwloc_version_string();
    topo_.cpus = from_bitmap(hwloc_topology_get_complete_cpuset(t_));
    topo_.allowed_cpus = from_bitmap(hwloc_topology_get_allowed_cpuset(t_));
    topo_.allowed_numa_nodes = from_bitmap(hwloc_topology_get_allowed_nodeset(t_));
    packages_and_nodes();
    walk_normal(root);
    devices();
    finalize(topo_);
    return std::move(topo_);
  }

  // hwloc object of each PCI node, for the NVLink matrix.
  const std::map<hwloc_obj_t, int>& pci_index() const { return pci_index_; }

 private:
  void packages_and_nodes() {
    for (hwloc_obj_t p = hwloc_get_next_obj_by_type(t_, HWLOC_OBJ_PACKAGE, nullptr); p != nullptr;
         p = hwloc_get_next_obj_by_type(t_, HWLOC_OBJ_PACKAGE, p)) {
      Package pkg;
      pkg.os_index = p->os_index;
      pkg.cpus = from_bitmap(p->complete_cpuset);
      pkg.numa_nodes = from_bitmap(p->complete_nodeset);
      pkg.model = info(p, "CPUModel");
      topo_.packages.push_back(std::move(pkg));
    }
    for (hwloc_obj_t n = hwloc_get_next_obj_by_type(t_, HWLOC_OBJ_NUMANODE, nullptr); n != nullptr;
         n = hwloc_get_next_obj_by_type(t_, HWLOC_OBJ_NUMANODE, n)) {
      NumaNode node;
      node.os_index = n->os_index;
      node.cpus = from_bitmap(n->complete_cpuset);
      node.memory_bytes = n->attr->numanode.local_memory;
      topo_.numa_nodes.push_back(std::move(node));
    }
  }

  void walk_normal(hwloc_obj_t obj) {
    for (hwloc_obj_t io = obj->io_first_child; io != nullptr; io = io->next_sibling) add_io(io, -1, obj);
    for (hwloc_obj_t child = obj->first_child; child != nullptr; child = child->next_sibling) walk_normal(child);
  }

  void add_io(hwloc_obj_t obj, int parent, hwloc_obj_t cpu_side) {
    if (obj->type == HWLOC_OBJ_OS_DEVICE) {
      if (parent >= 0) {
        osdevs_[parent].push_back({obj->name != nullptr ? obj->name : "", raw_enum(obj->attr->osdev.type), obj});
        topo_.pci[static_cast<std::size_t>(parent)].os_devices.emplace_back(obj->name != nullptr ? obj->name : "");
      }
      return;
    }
    if (obj->type != HWLOC_OBJ_BRIDGE && obj->type != HWLOC_OBJ_PCI_DEVICE) return;
    PciNode node;
    node.parent = parent;
    if (obj->type == HWLOC_OBJ_BRIDGE) {
      const BridgeAttr& bridge = obj->attr->bridge;
      node.bus_range = bus_range_of(bridge);
      if (raw_enum(bridge.upstream_type) == static_cast<unsigned>(HWLOC_OBJ_BRIDGE_HOST)) {
        node.kind = PciKind::kHostBridge;
        node.upstream_link = false;
      } else {
        node.kind = PciKind::kBridge;
        copy_pci(bridge.upstream.pci, node);
        // Depth 1 is a root port, 3 a switch downstream port: their LNKSTA describes the link
        // below them, which the child reports too.
        node.upstream_link = bridge.depth % 2 == 0;
      }
    } else {
      copy_pci(obj->attr->pcidev, node);
    }
    node.subtype = obj->subtype != nullptr ? obj->subtype : "";
    // hwloc names NVSwitches only with its NVML plugin; the PCI identity says it without one, as
    // the NCCL source reads it.
    if (node.subtype.empty() && node.kind == PciKind::kDevice && is_nvswitch(identity_of(node))) {
      node.subtype = "NVSwitch";
    }
    node.name = info(obj, "PCIDevice");
    if (parent < 0) {
      node.cpus = from_bitmap(cpu_side->complete_cpuset);
      node.numa_nodes = from_bitmap(cpu_side->complete_nodeset);
    }
    topo_.pci.push_back(std::move(node));
    const int index = static_cast<int>(topo_.pci.size()) - 1;
    pci_index_[obj] = index;
    for (hwloc_obj_t io = obj->io_first_child; io != nullptr; io = io->next_sibling) add_io(io, index, cpu_side);
  }

  void devices() {
    for (std::size_t i = 0; i < topo_.pci.size(); ++i) {
      const PciNode& node = topo_.pci[i];
      if (node.kind != PciKind::kDevice) continue;
      const std::vector<OsDev>& os = osdevs_[static_cast<int>(i)];
      if (is_gpu(identity_of(node))) add_gpu(static_cast<int>(i), os);
      bool openfabrics = false;
      for (const OsDev& d : os)
        openfabrics = openfabrics || d.type == static_cast<unsigned>(HWLOC_OBJ_OSDEV_OPENFABRICS);
      if (is_network_device(identity_of(node)) || openfabrics) add_nic(static_cast<int>(i), os);
    }
  }

  void add_gpu(int index, const std::vector<OsDev>& os) {
    const PciNode& node = topo_.pci[static_cast<std::size_t>(index)];
    Gpu gpu = gpu_at_pci(topo_, index);
    for (const OsDev& d : os) {
      gpu.os_devices.push_back(d.name);
      if (gpu.name.empty()) gpu.name = info(d.obj, "GPUModel");
      if (gpu.uuid.empty()) gpu.uuid = info(d.obj, "NVIDIAUUID");
    }
    if (gpu.name.empty()) gpu.name = node.name;
    topo_.gpus.push_back(std::move(gpu));
  }

  static std::string ib_port_state(std::string_view value) {
    // ib_verbs' enum ibv_port_state, as hwloc stores it.
    if (value == "1") return "DOWN";
    if (value == "2") return "INIT";
    if (value == "3") return "ARMED";
    if (value == "4") return "ACTIVE";
    if (value == "5") return "ACTIVE_DEFER";
    return std::string(value);
  }

  void add_nic(int index, const std::vector<OsDev>& os) {
    const PciNode& node = topo_.pci[static_cast<std::size_t>(index)];
    Nic nic = nic_at_pci(topo_, index);
    nic.description = node.name;
    std::string rdma, netdev;
    for (const OsDev& d : os) {
      nic.os_devices.push_back(d.name);
      if (d.type == static_cast<unsigned>(HWLOC_OBJ_OSDEV_OPENFABRICS) && rdma.empty()) {
        rdma = d.name;
        add_ports(d.obj, nic);
      }
      if (d.type == static_cast<unsigned>(HWLOC_OBJ_OSDEV_NETWORK) && netdev.empty()) netdev = d.name;
    }
    nic.name = !rdma.empty() ? rdma : netdev;
    nic.kind = classify_nic(identity_of(node), rdma);
    topo_.nics.push_back(std::move(nic));
  }

  static void add_ports(hwloc_obj_t obj, Nic& nic) {
    for (unsigned i = 0; i < obj->infos_count; ++i) {
      const std::string_view key = obj->infos[i].name;
      if (!starts_with(key, "Port") || key.size() < 10 || key.substr(key.size() - 5) != "State") continue;
      const std::string number(key.substr(4, key.size() - 9));
      NicPort port;
      port.number = std::atoi(number.c_str());
      port.state = ib_port_state(obj->infos[i].value);
      nic.ports.push_back(port);
    }
  }

  hwloc_topology_t t_;
  std::string_view xml_format_;
  Topology topo_;
  std::map<int, std::vector<OsDev>> osdevs_;
  std::map<hwloc_obj_t, int> pci_index_;
};

// The PCI node an NVLink endpoint belongs to (OS devices sit below their PCI device).
int pci_of(hwloc_obj_t obj, const std::map<hwloc_obj_t, int>& pci_index) {
  for (; obj != nullptr; obj = obj->parent) {
    if (auto it = pci_index.find(obj); it != pci_index.end()) return it->second;
  }
  return -1;
}

int links_for_bandwidth(std::uint64_t mbps) {
  // hwloc sums 20000 MB/s per NVLink 1 link and 25000 per NVLink 2-4 link.
  if (mbps % 25000 == 0) return static_cast<int>(mbps / 25000);
  if (mbps % 20000 == 0) return static_cast<int>(mbps / 20000);
  return static_cast<int>(std::lround(static_cast<double>(mbps) / 25000.0));
}

struct GpuPairs {
  std::map<std::pair<int, int>, std::uint64_t> mbps;
  int cpu_endpoints = 0;
};

GpuPairs gpu_pairs(const hwloc_distances_s& d, const Topology& topo, const std::map<hwloc_obj_t, int>& pci_index) {
  GpuPairs out;
  std::vector<int> gpu(d.nbobjs, -1);
  for (unsigned i = 0; i < d.nbobjs; ++i) {
    if (d.objs[i] == nullptr) continue;
    if (d.objs[i]->type == HWLOC_OBJ_PACKAGE) ++out.cpu_endpoints;
    const int pci = pci_of(d.objs[i], pci_index);
    if (pci >= 0) gpu[i] = topo.gpu_by_bus_id(topo.pci[static_cast<std::size_t>(pci)].bus_id);
  }
  for (unsigned i = 0; i < d.nbobjs; ++i) {
    for (unsigned j = i + 1; j < d.nbobjs; ++j) {
      const std::uint64_t v = std::max(d.values[i * d.nbobjs + j], d.values[j * d.nbobjs + i]);
      if (gpu[i] < 0 || gpu[j] < 0 || gpu[i] == gpu[j] || v == 0) continue;
      out.mbps[{std::min(gpu[i], gpu[j]), std::max(gpu[i], gpu[j])}] = v;
    }
  }
  return out;
}

NvLinkInfo read_nvlinks(hwloc_topology_t t, const Topology& topo, const std::map<hwloc_obj_t, int>& pci_index) {
  NvLinkInfo info;
  unsigned nr = 1;
  hwloc_distances_s* d = nullptr;
  if (hwloc_distances_get_by_name(t, "NVLinkBandwidth", &nr, &d, 0) != 0 || nr == 0 || d == nullptr) {
    info.note = "no NVLink info: the XML has no NVLinkBandwidth matrix (captured without hwloc's NVML plugin)";
    return info;
  }
  const GpuPairs direct = gpu_pairs(*d, topo, pci_index);
  // Closing over a matrix whose switch merge failed zeroes it, so close only after a merge.
  const bool merged = hwloc_distances_transform(t, d, HWLOC_DISTANCES_TRANSFORM_MERGE_SWITCH_PORTS, nullptr, 0) == 0;
  const bool closed = merged &&
                      hwloc_distances_transform(t, d, HWLOC_DISTANCES_TRANSFORM_TRANSITIVE_CLOSURE, nullptr, 0) == 0;
  const GpuPairs all = closed ? gpu_pairs(*d, topo, pci_index) : direct;
  hwloc_distances_release(t, d);
  info.source = NvLinkSource::kHwloc;
  for (const auto& [pair, mbps] : all.mbps) {
    NvLink link;
    link.gpu_a = pair.first;
    link.gpu_b = pair.second;
    link.gbps = static_cast<double>(mbps) / 1000.0;
    link.links = links_for_bandwidth(mbps);
    link.via_nvswitch = !direct.mbps.contains(pair);
    info.pairs.push_back(link);
  }
  info.note = "link counts derived from hwloc's NVLinkBandwidth (25 GB/s per link, 20 GB/s for NVLink 1)";
  if (direct.cpu_endpoints > 0) info.note += "; GPU-CPU NVLinks are not part of the GPU matrix";
  return info;
}

Status check_loaded(int rc, const std::string& what) {
  if (rc != 0)
    return Status::error(ErrorCode::kUsage,
                         what + ": hwloc " + hwloc_version_string() + " could not load the topology");
  return ok_status();
}

// hwloc's XML import with libxml2 is a plugin (Debian: libhwloc-plugins). Without it, or with
// HWLOC_LIBXML_IMPORT=0, hwloc falls back to its minimal parser, which refuses valid files (a
// comment, single quotes). The plugin lies in "hwloc/" next to libhwloc, or in HWLOC_PLUGINS_PATH.
bool libxml_import_available() {
  for (const char* name : {"HWLOC_LIBXML_IMPORT", "HWLOC_LIBXML"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && std::strcmp(value, "0") == 0) return false;
  }
  std::vector<std::filesystem::path> dirs;
  if (const char* paths = std::getenv("HWLOC_PLUGINS_PATH"); paths != nullptr) {
    for (std::string_view dir : split(paths, ':')) dirs.emplace_back(std::string(dir));
  } else {
    Dl_info where{};
    if (dladdr(reinterpret_cast<void*>(&hwloc_topology_init), &where) == 0 || where.dli_fname == nullptr) return true;
    dirs.push_back(std::filesystem::path(where.dli_fname).parent_path() / "hwloc");
  }
  std::error_code ec;
  for (const auto& dir : dirs) {
    if (std::filesystem::exists(dir / "hwloc_xml_libxml.so", ec)) return true;
  }
  return false;
}

// One line: hwloc's own reason goes to stderr only with HWLOC_XML_VERBOSE=1.
Status xml_refused(const std::string& origin) {
  std::string message = origin + ": hwloc " + hwloc_version_string() +
                        " refused this hwloc XML (HWLOC_XML_VERBOSE=1 shows hwloc's reason)";
  if (!libxml_import_available()) {
    message += "; hwloc is using its minimal XML parser, which refuses some valid files: install libhwloc-plugins";
  }
  return Status::error(ErrorCode::kUsage, message);
}

// The release of the hwloc library loaded at run time. hwloc_get_api_version() says 0x20800 for
// 2.8, 2.9 and 2.10 alike, but every topology hwloc discovers (not one read from XML) carries an
// "hwlocVersion" info naming the release: a one-PU synthetic topology is enough (with its NUMA
// node: without one, hwloc 2.9 adds it with an overlapping memcpy that valgrind and ASan flag).
std::string runtime_version() {
  TopologyHandle handle;
  if (!handle.init().ok() || hwloc_topology_set_synthetic(handle.get(), "node:1 pu:1") != 0 ||
      hwloc_topology_load(handle.get()) != 0) {
    return HWLOC_VERSION;
  }
  const std::string version = info(hwloc_get_root_obj(handle.get()), "hwlocVersion");
  return version.empty() ? HWLOC_VERSION : version;
}

}  // namespace

bool hwloc_available() { return true; }

std::string hwloc_version_string() {
  static const std::string version = runtime_version();
  return version;
}

Result<Topology> hwloc_discover_live() {
  TopologyHandle handle;
  COLLBENCH_RETURN_IF_ERROR(handle.init());
  hwloc_topology_set_flags(handle.get(), HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
  hwloc_topology_set_io_types_filter(handle.get(), HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  COLLBENCH_RETURN_IF_ERROR(check_loaded(hwloc_topology_load(handle.get()), "live discovery"));
  Converter converter(handle.get());
  Topology topo = converter.run(SourceKind::kLive, "live");
  topo.nvlink.note = "no NVLink info from hwloc (Debian's hwloc has no NVML plugin)";
  return topo;
}

Result<Topology> hwloc_load_xml(std::string_view xml, const std::string& origin, std::string_view format) {
  if (xml.size() >= static_cast<std::size_t>(INT32_MAX))
    return Status::error(ErrorCode::kUsage, origin + ": file too large");
  // hwloc prints its "critical" errors about a refused file ("Topology does not contain any NUMA
  // node, aborting!") to stderr, besides the one line we return. hwloc reads this once per process;
  // a user's own setting, or HWLOC_XML_VERBOSE=1 when they asked for hwloc's reasons, wins.
  if (std::getenv("HWLOC_XML_VERBOSE") == nullptr) setenv("HWLOC_HIDE_ERRORS", "2", 0);
  TopologyHandle handle;
  COLLBENCH_RETURN_IF_ERROR(handle.init());
  // A capture taken inside a cgroup marks NUMA nodes disallowed; dropping them would leave
  // Packages without nodes and turn NODE pairs into SYS.
  hwloc_topology_set_flags(handle.get(), HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
  // Keep everything the file holds: NVSwitches (class 0x0680) are not "important" to hwloc and
  // the NVLink matrix refers to them.
  hwloc_topology_set_io_types_filter(handle.get(), HWLOC_TYPE_FILTER_KEEP_ALL);
  // hwloc parses the buffer with C string functions: the length includes the terminating NUL.
  const std::string owned(xml);
  if (hwloc_topology_set_xmlbuffer(handle.get(), owned.c_str(), static_cast<int>(owned.size() + 1)) != 0) {
    return xml_refused(origin);
  }
  if (hwloc_topology_load(handle.get()) != 0) return xml_refused(origin);
  Converter converter(handle.get(), format);
  Topology topo = converter.run(SourceKind::kHwlocXml, origin);
  topo.nvlink = read_nvlinks(handle.get(), topo, converter.pci_index());
  return topo;
}

}  // namespace collbench::topo
