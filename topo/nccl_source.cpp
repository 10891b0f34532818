#include "topo/nccl_source.hpp"

#include <charconv>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/strings.hpp"
#include "topo/nvlink.hpp"
#include "topo/pci_ids.hpp"

namespace collbench::topo {
namespace {

constexpr double kAssumedNvlinkGbps = 25.0;

std::uint32_t hex_attr(const XmlElement& e, std::string_view key) {
  const std::string raw = e.attribute_or(key, "");
  std::string_view text = trim(raw);
  if (starts_with(text, "0x") || starts_with(text, "0X")) text.remove_prefix(2);
  std::uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  return ec == std::errc() && end == text.data() + text.size() ? value : 0;
}

int int_attr(const XmlElement& e, std::string_view key, int fallback) {
  const std::string text(trim(e.attribute_or(key, "")));
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() ? value : fallback;
}

class Builder {
 public:
  explicit Builder(const std::string& origin) {
    topo_.source = SourceKind::kNcclXml;
    topo_.origin = origin;
    topo_.tool_version = "NCCL topology XML version 1";
  }

  Status add_cpu(const XmlElement& cpu) {
    NumaNode node;
    const int numaid = int_attr(cpu, "numaid", -1);
    if (numaid < 0) {
      node.os_index = static_cast<std::uint32_t>(topo_.numa_nodes.size());
      warn("line " + std::to_string(cpu.line) + ": <cpu> without a valid numaid; numbered " +
           std::to_string(node.os_index));
    } else {
      node.os_index = static_cast<std::uint32_t>(numaid);
    }
    if (auto mask = IndexSet::from_mask(cpu.attribute_or("affinity", "")); mask.ok()) {
      node.cpus = *mask;
    } else {
      warn("line " + std::to_string(cpu.line) + ": " + mask.status().message());
    }
    const IndexSet nodes({node.os_index});
    for (const XmlElement& child : cpu.children) {
      if (child.name == "pci") COLLBENCH_RETURN_IF_ERROR(add_pci(child, -1, node.cpus, nodes));
      if (child.name == "nic") add_nic(child, synthetic_node(-1, node.cpus, nodes));
    }
    topo_.numa_nodes.push_back(std::move(node));
    return ok_status();
  }

  Result<Topology> finish() {
    finalize(topo_);
    if (saw_nvlink_) {
      topo_.nvlink = build_nvlinks(topo_, links_, NvLinkSource::kNcclXml);
    } else if (saw_gpu_element_) {
      topo_.nvlink.source = NvLinkSource::kNcclXml;
      topo_.nvlink.note = "the file lists GPUs without <nvlink> elements: no NVLinks";
    } else {
      topo_.nvlink.note = "no NVLink info: the file has no <gpu> elements";
    }
    if (assumed_rate_) {
      topo_.nvlink.note += std::string(topo_.nvlink.note.empty() ? "" : "; ") +
                           "per-link rate assumed to be 25 GB/s where <gpu sm> is missing";
    }
    if (saw_c2c_) topo_.warnings.emplace_back("C2C links (<c2c>) are not modelled");
    return std::move(topo_);
  }

 private:
  void warn(std::string text) { topo_.warnings.push_back(std::move(text)); }

  int push(PciNode node) {
    topo_.pci.push_back(std::move(node));
    return static_cast<int>(topo_.pci.size()) - 1;
  }

  int synthetic_node(int parent, const IndexSet& cpus, const IndexSet& nodes) {
    PciNode node;
    node.parent = parent;
    node.class_id = 0x0200;
    node.cpus = cpus;
    node.numa_nodes = nodes;
    return push(std::move(node));
  }

  Status add_pci(const XmlElement& e, int parent, const IndexSet& cpus, const IndexSet& nodes) {
    PciNode node;
    node.parent = parent;
    const std::string raw = e.attribute_or("busid", "");
    if (auto id = normalize_bus_id(raw)) {
      node.bus_id = *id;
    } else {
      warn("line " + std::to_string(e.line) + ": <pci busid=\"" + raw + "\"> is not a PCI address");
    }
    const std::uint32_t cls = hex_attr(e, "class");
    node.class_id = static_cast<std::uint16_t>(cls > 0xffff ? cls >> 8 : cls);
    node.vendor_id = static_cast<std::uint16_t>(hex_attr(e, "vendor"));
    node.device_id = static_cast<std::uint16_t>(hex_attr(e, "device"));
    node.subvendor_id = static_cast<std::uint16_t>(hex_attr(e, "subsystem_vendor"));
    node.subdevice_id = static_cast<std::uint16_t>(hex_attr(e, "subsystem_device"));
    node.link.gts = leading_number(e.attribute_or("link_speed", ""));
    node.link.width = int_attr(e, "link_width", 0);
    node.link.gbps = pcie_gbps(node.link.gts, node.link.width);
    node.cpus = cpus;
    node.numa_nodes = nodes;
    if (node.class_id == pci_ids::kClassPciBridge) {
      node.kind = PciKind::kBridge;
      node.bridge_weight = 2;
    }
    if (is_nvswitch(identity_of(node))) node.subtype = "NVSwitch";
    const int index = push(node);
    bool gpu_element = false, nic_element = false;
    for (const XmlElement& child : e.children) {
      if (child.name == "pci") COLLBENCH_RETURN_IF_ERROR(add_pci(child, index, cpus, nodes));
      if (child.name == "gpu") {
        gpu_element = true;
        add_gpu(child, index);
      }
      if (child.name == "nic") {
        nic_element = true;
        add_nic(child, index);
      }
      if (child.name == "c2c") saw_c2c_ = true;
    }
    const PciIdentity id = identity_of(node);
    if (node.kind == PciKind::kDevice && is_gpu(id) && !gpu_element) add_gpu(XmlElement{}, index);
    if (node.kind == PciKind::kDevice && is_network_device(id) && !nic_element) add_nic(XmlElement{}, index);
    return ok_status();
  }

  void add_gpu(const XmlElement& e, int index) {
    topo_.gpus.push_back(gpu_at_pci(topo_, index));
    if (e.name.empty()) return;
    saw_gpu_element_ = true;
    GpuLinks links;
    links.bus_id = topo_.gpus.back().bus_id;
    const int sm = int_attr(e, "sm", 0);
    links.per_link_gbps = nvlink_gbps_per_link(nvlink_version_for_sm(sm));
    for (const XmlElement& child : e.children) {
      if (child.name != "nvlink") continue;
      saw_nvlink_ = true;
      LinkTarget target;
      target.links = int_attr(child, "count", 1);
      target.bus_id = normalize_bus_id(child.attribute_or("target", "")).value_or("");
      const std::uint32_t tclass = hex_attr(child, "tclass");
      target.peer = tclass == 0x068000 ? LinkPeer::kNvSwitch : tclass == 0x068001 ? LinkPeer::kCpu : LinkPeer::kGpu;
      links.targets.push_back(target);
    }
    if (sm == 0 || links.per_link_gbps == 0) {
      links.per_link_gbps = kAssumedNvlinkGbps;
      assumed_rate_ = assumed_rate_ || !links.targets.empty();
    }
    links_.push_back(std::move(links));
  }

  void add_nic(const XmlElement& e, int index) {
    const PciNode& node = topo_.pci[static_cast<std::size_t>(index)];
    Nic nic = nic_at_pci(topo_, index);
    for (const XmlElement& net : e.children) {
      if (net.name != "net") continue;
      const std::string name = net.attribute_or("name", "");
      if (nic.name.empty()) nic.name = name;
      if (!name.empty()) nic.os_devices.push_back(name);
      NicPort port;
      port.number = int_attr(net, "port", 1);
      port.rate_gbps = int_attr(net, "speed", 0) / 1000.0;  // NCCL writes Mb/s
      nic.ports.push_back(port);
    }
    // NCCL names a socket interface and an RDMA device alike: only the latter makes RDMA.
    nic.kind = classify_nic(identity_of(node), is_verbs_device_name(nic.name) ? std::string_view(nic.name) : "");
    topo_.nics.push_back(std::move(nic));
  }

  Topology topo_;
  std::vector<GpuLinks> links_;
  bool saw_gpu_element_ = false;
  bool saw_nvlink_ = false;
  bool saw_c2c_ = false;
  bool assumed_rate_ = false;
};

}  // namespace

Result<Topology> topology_from_nccl_xml(const XmlElement& system, const std::string& origin) {
  if (system.name != "system") {
    return Status::error(ErrorCode::kUsage, origin + ": root element <" + system.name + "> is not NCCL's <system>");
  }
  const std::string version = system.attribute_or("version", "");
  if (version != "1") {
    return Status::error(ErrorCode::kUsage, origin + ": NCCL topology XML version '" + version +
                                                "' is not supported (expected version=\"1\")");
  }
  Builder builder(origin);
  for (const XmlElement& child : system.children) {
    if (child.name == "cpu") COLLBENCH_RETURN_IF_ERROR(builder.add_cpu(child));
  }
  return builder.finish();
}

}  // namespace collbench::topo
