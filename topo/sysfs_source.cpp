#include "topo/sysfs_source.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "common/strings.hpp"

namespace collbench::topo {
namespace {

namespace fs = std::filesystem;

// First line of a small sysfs file, trimmed; "" when absent or unreadable.
std::string read_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  return std::string(trim(line));
}

int leading_int(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end != text.data() ? value : 0;
}

void pci_link(const fs::path& dir, PciLink& link) {
  const double gts = leading_number(read_line(dir / "current_link_speed"));
  const int width = leading_int(read_line(dir / "current_link_width"));
  if (gts > 0 && width > 0) {
    link.gts = gts;
    link.width = width;
    link.gbps = pcie_gbps(gts, width);
  }
  const double max_gts = leading_number(read_line(dir / "max_link_speed"));
  const int max_width = leading_int(read_line(dir / "max_link_width"));
  if (max_gts > 0 && max_width > 0) {
    link.max_gts = max_gts;
    link.max_width = max_width;
    link.max_gbps = pcie_gbps(max_gts, max_width);
  }
}

std::vector<NicPort> rdma_ports(const fs::path& device) {
  std::vector<NicPort> ports;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(device / "ports", ec)) {
    NicPort port;
    port.number = leading_int(entry.path().filename().string());
    // "4: ACTIVE", "100 Gb/sec (4X EDR)", "InfiniBand"
    const std::string state = read_line(entry.path() / "state");
    const auto colon = state.find(':');
    port.state = std::string(trim(colon == std::string::npos ? state : state.substr(colon + 1)));
    port.rate_gbps = leading_number(read_line(entry.path() / "rate"));
    port.link_layer = read_line(entry.path() / "link_layer");
    ports.push_back(port);
  }
  std::sort(ports.begin(), ports.end(), [](const NicPort& a, const NicPort& b) { return a.number < b.number; });
  return ports;
}

void nic_details(const fs::path& root, Nic& nic) {
  std::error_code ec;
  for (const std::string& dev : nic.os_devices) {
    const fs::path rdma = root / "class" / "infiniband" / dev;
    if (!fs::exists(rdma / "ports", ec)) continue;
    std::vector<NicPort> ports = rdma_ports(rdma);
    if (ports.empty()) continue;
    nic.ports = std::move(ports);
    const std::string& layer = nic.ports.front().link_layer;
    if (layer == "Ethernet" && nic.kind == NicKind::kInfiniband) nic.kind = NicKind::kRoce;
    if (layer == "InfiniBand" && nic.kind == NicKind::kRoce) nic.kind = NicKind::kInfiniband;
    return;
  }
  for (const std::string& dev : nic.os_devices) {
    const fs::path net = root / "class" / "net" / dev;
    if (!fs::exists(net, ec)) continue;
    NicPort port;
    port.state = read_line(net / "operstate");
    const int mbps = leading_int(read_line(net / "speed"));  // -1 when the link is down
    port.rate_gbps = mbps > 0 ? mbps / 1000.0 : 0;
    port.link_layer = "Ethernet";
    nic.ports = {port};
    return;
  }
}

}  // namespace

void add_sysfs_details(Topology& topo, const std::string& sysfs_root) {
  const fs::path root(sysfs_root);
  for (PciNode& node : topo.pci) {
    if (!node.bus_id.empty()) pci_link(root / "bus" / "pci" / "devices" / node.bus_id, node.link);
  }
  for (Nic& nic : topo.nics) nic_details(root, nic);
}

}  // namespace collbench::topo
