#include "topo/hwloc_xml_notes.hpp"

#include <cstdlib>
#include <optional>

#include "topo/hwloc_type_name.hpp"

namespace collbench::topo {
namespace {

struct Found {
  bool numa_node = false;
  bool io = false;
  bool link_speed = false;
};

void walk(const XmlElement& e, bool root, Found& found) {
  if (e.name == "object") {
    const std::string* name = e.attribute("type");
    const std::optional<HwlocXmlType> type = name != nullptr ? hwloc_xml_type(*name, root) : std::nullopt;
    if (type == HwlocXmlType::kNumaNode) found.numa_node = true;
    if (type == HwlocXmlType::kBridge || type == HwlocXmlType::kPciDevice) found.io = true;
    if (const std::string* speed = e.attribute("pci_link_speed"); speed != nullptr && std::atof(speed->c_str()) > 0) {
      found.link_speed = true;
    }
  }
  for (const XmlElement& child : e.children) walk(child, false, found);
}

}  // namespace

std::string_view hwloc_xml_format_name(int major) {
  if (major <= 0) return "hwloc 0.9 XML";
  if (major == 1) return "hwloc 1.x XML";
  return "hwloc 2.x XML";
}

std::vector<std::string> hwloc_xml_notes(const XmlElement& root, int major, const Topology& topo) {
  std::vector<std::string> notes;
  if (major >= 2) return notes;
  Found found;
  bool first = true;
  for (const XmlElement& child : root.children) {
    walk(child, first && child.name == "object", found);
    first = false;
  }
  const std::string format(hwloc_xml_format_name(major));
  if (!found.numa_node) {
    notes.push_back(format + ": the file has no NUMA node; hwloc assumed one holding every CPU (" +
                    std::to_string(topo.numa_nodes.size()) + " in the topology)");
  }
  if (!found.io) {
    notes.push_back(format +
                    ": the file has no I/O objects (captured without PCI discovery): no GPUs, NICs or PCIe paths");
  } else if (!found.link_speed) {
    notes.push_back(format + ": the file records no PCIe link speeds: path bandwidths are unknown");
  }
  if (!topo.gpus.empty()) {
    notes.push_back(format + ": hwloc 1.x recorded no NVLinks, so GPU pairs show their PCIe path only");
  }
  return notes;
}

}  // namespace collbench::topo
