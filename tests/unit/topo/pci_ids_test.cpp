#include "topo/pci_ids.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "topo/discover.hpp"
#include "topo/hwloc_source.hpp"
#include "topo/nccl_source.hpp"
#include "topo/xml_reader.hpp"

namespace collbench::topo {
namespace {

PciIdentity id(std::uint16_t vendor, std::uint16_t device, std::uint16_t cls) {
  return {.vendor_id = vendor, .device_id = device, .class_id = cls};
}

TEST(PciIds, GpusAndNvSwitches) {
  EXPECT_TRUE(is_gpu(id(0x10de, 0x2330, 0x0302)));   // H100 SXM5
  EXPECT_TRUE(is_gpu(id(0x10de, 0x20b0, 0x0302)));   // A100 SXM4
  EXPECT_TRUE(is_gpu(id(0x10de, 0x2204, 0x0300)));   // GeForce RTX 3090, a VGA controller
  EXPECT_TRUE(is_gpu(id(0, 0, 0x0302)));             // an NCCL dump without the vendor
  EXPECT_FALSE(is_gpu(id(0x1a03, 0x2000, 0x0300)));  // ASPEED BMC display
  EXPECT_FALSE(is_gpu(id(0x10de, 0x22a3, 0x0680)));  // NVSwitch
  EXPECT_TRUE(is_nvswitch(id(0x10de, 0x22a3, 0x0680)));
  EXPECT_FALSE(is_nvswitch(id(0x8086, 0x1234, 0x0680)));  // someone else's "other bridge"
}

TEST(PciIds, NetworkDevices) {
  EXPECT_TRUE(is_network_device(id(0x15b3, 0x101d, 0x0200)));
  EXPECT_TRUE(is_network_device(id(0x15b3, 0x1021, 0x0207)));
  EXPECT_TRUE(is_network_device(id(0x15b3, 0x1003, 0x0c06)));   // an older HCA's serial-bus class
  EXPECT_FALSE(is_network_device(id(0x144d, 0xa80a, 0x0108)));  // NVMe
}

TEST(PciIds, NicKindsOfRealDevices) {
  EXPECT_EQ(classify_nic(id(0x15b3, 0x1021, 0x0207), "mlx5_0"), NicKind::kInfiniband);  // ConnectX-7, IB
  EXPECT_EQ(classify_nic(id(0x15b3, 0x1021, 0x0207), ""), NicKind::kInfiniband);
  EXPECT_EQ(classify_nic(id(0x15b3, 0x101d, 0x0200), "mlx5_2"), NicKind::kRoce);  // ConnectX-6 Dx
  EXPECT_EQ(classify_nic(id(0x15b3, 0x101d, 0x0200), ""), NicKind::kEthernet);    // no RDMA driver
  EXPECT_EQ(classify_nic(id(0x1d0f, 0xefa0, 0x0200), ""), NicKind::kEfa);         // p4d's EFA
  EXPECT_EQ(classify_nic(id(0x1d0f, 0xefa1, 0x0200), "rdmap79s0"), NicKind::kEfa);
  EXPECT_EQ(classify_nic(id(0x1d0f, 0xefa2, 0x0200), ""), NicKind::kEfa);
  EXPECT_EQ(classify_nic(id(0x1d0f, 0xec20, 0x0200), ""), NicKind::kEthernet);  // ENA is not EFA
  EXPECT_EQ(classify_nic(id(0x8086, 0x24f0, 0x0208), "hfi1_0"), NicKind::kOmniPath);
  EXPECT_EQ(classify_nic(id(0x14e4, 0x1750, 0x0200), "bnxt_re0"), NicKind::kRoce);  // Broadcom 57508
  EXPECT_EQ(classify_nic(id(0x8086, 0x1593, 0x0200), "irdma0"), NicKind::kRoce);    // Intel E810
  EXPECT_EQ(classify_nic(id(0x8086, 0x1593, 0x0200), ""), NicKind::kEthernet);
  EXPECT_EQ(classify_nic(id(0x1234, 0x5678, 0x0880), ""), NicKind::kOther);
}

TEST(PciIds, VerbsNamesAreNotInterfaceNames) {
  for (const char* name : {"mlx5_0", "mlx4_1", "bnxt_re0", "irdma1", "rdmap16s27", "efa_0", "hfi1_0", "ionic_0"}) {
    EXPECT_TRUE(is_verbs_device_name(name)) << name;
  }
  for (const char* name : {"eth0", "ens5", "enp1s0f0", "ib0", "bond0", ""})
    EXPECT_FALSE(is_verbs_device_name(name)) << name;
}

Topology from_nccl(const std::string& xml) {
  auto root = parse_xml(xml);
  EXPECT_TRUE(root.ok()) << root.status().message();
  if (!root.ok()) return {};
  auto t = topology_from_nccl_xml(*root, "test");
  EXPECT_TRUE(t.ok()) << t.status().message();
  return t.ok() ? *t : Topology{};
}

std::string nccl_nic(const std::string& bus, const std::string& vendor, const std::string& device,
                     const std::string& cls, const std::string& net) {
  return "<pci busid=\"" + bus + "\" class=\"" + cls + "\" vendor=\"" + vendor + "\" device=\"" + device +
         "\" link_speed=\"16.0 GT/s PCIe\" link_width=\"16\"><nic><net name=\"" + net +
         "\" dev=\"0\" speed=\"100000\" port=\"1\" gdr=\"0\"/></nic></pci>";
}

// An AWS-like dump: ENA beside EFA. Before one classification, any Amazon NIC read as EFA here.
TEST(PciIds, NcclDumpKindsFollowTheSameRules) {
  const std::string xml =
      "<system version=\"1\"><cpu numaid=\"0\" affinity=\"0000ffff\" arch=\"x86_64\" vendor=\"GenuineIntel\">" +
      nccl_nic("0000:10:1b.0", "0x1d0f", "0xefa0", "0x020000", "rdmap16s27") +
      nccl_nic("0000:20:00.0", "0x1d0f", "0xec20", "0x020000", "ens5") +
      nccl_nic("0000:30:00.0", "0x15b3", "0x101d", "0x020000", "mlx5_0") +
      nccl_nic("0000:40:00.0", "0x15b3", "0x101d", "0x020000", "eth2") +
      nccl_nic("0000:50:00.0", "0x15b3", "0x1021", "0x020700", "mlx5_1") + "</cpu></system>";
  const Topology t = from_nccl(xml);
  ASSERT_EQ(t.nics.size(), 5u);
  EXPECT_EQ(t.nics[0].kind, NicKind::kEfa);
  EXPECT_EQ(t.nics[1].kind, NicKind::kEthernet);
  EXPECT_EQ(t.nics[2].kind, NicKind::kRoce);
  EXPECT_EQ(t.nics[3].kind, NicKind::kEthernet);  // a socket interface: no RDMA
  EXPECT_EQ(t.nics[4].kind, NicKind::kInfiniband);
}

// One machine's PCI devices, written both as hwloc writes them and as NCCL dumps them.
struct Device {
  std::string bus;     // "0000:10:00.0"
  std::string vendor;  // "10de"
  std::string device;
  std::string cls;     // "0302"
  std::string rdma;    // the verbs device ("" for none)
  std::string netdev;  // the socket interface ("" for none)
};

const std::vector<Device> kMachine = {
    {"0000:10:00.0", "10de", "2330", "0302", "", ""},            // H100 SXM
    {"0000:11:00.0", "10de", "22a3", "0680", "", ""},            // NVSwitch
    {"0000:12:00.0", "1a03", "2000", "0300", "", ""},            // ASPEED BMC display
    {"0000:20:00.0", "1d0f", "efa1", "0200", "rdmap32s0", ""},   // EFA
    {"0000:21:00.0", "1d0f", "ec20", "0200", "", "ens5"},        // ENA
    {"0000:30:00.0", "15b3", "101d", "0200", "mlx5_0", "eth1"},  // ConnectX-6 Dx, RoCE
    {"0000:31:00.0", "15b3", "101d", "0200", "", "eth2"},        // the same, no RDMA device
    {"0000:40:00.0", "15b3", "1021", "0207", "mlx5_1", ""},      // ConnectX-7, InfiniBand
};

std::string hwloc_xml(const std::vector<Device>& devices) {
  std::string io;
  int gp = 10;
  for (const Device& d : devices) {
    io += "<object type=\"PCIDev\" gp_index=\"" + std::to_string(gp++) + "\" pci_busid=\"" + d.bus + "\" pci_type=\"" +
          d.cls + " [" + d.vendor + ":" + d.device + "] [0000:0000] 00\" pci_link_speed=\"31.5\">";
    if (!d.rdma.empty()) {
      io += "<object type=\"OSDev\" gp_index=\"" + std::to_string(gp++) + "\" name=\"" + d.rdma +
            "\" osdev_type=\"3\"/>";
    }
    if (!d.netdev.empty()) {
      io += "<object type=\"OSDev\" gp_index=\"" + std::to_string(gp++) + "\" name=\"" + d.netdev +
            "\" osdev_type=\"2\"/>";
    }
    io += "</object>";
  }
  const std::string sets = "cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\"";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
         "<topology version=\"2.0\"><object type=\"Machine\" os_index=\"0\" " +
         sets +
         " gp_index=\"1\">"
         "<object type=\"NUMANode\" os_index=\"0\" " +
         sets +
         " gp_index=\"2\" local_memory=\"1000000\"/>"
         "<object type=\"Package\" os_index=\"0\" " +
         sets + " gp_index=\"3\"><object type=\"PU\" os_index=\"0\" " + sets + " gp_index=\"4\"/>" + io +
         "</object></object></topology>\n";
}

std::string nccl_xml(const std::vector<Device>& devices) {
  std::string pci;
  for (const Device& d : devices) {
    pci += "<pci busid=\"" + d.bus + "\" class=\"0x" + d.cls + "00\" vendor=\"0x" + d.vendor + "\" device=\"0x" +
           d.device + "\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\">";
    if (d.cls == "0302") pci += "<gpu dev=\"0\" sm=\"90\" rank=\"0\" gdr=\"1\"/>";
    // NCCL names a NIC by its verbs device when it has one, else by its interface.
    const std::string net = !d.rdma.empty() ? d.rdma : d.netdev;
    if (!net.empty()) pci += "<nic><net name=\"" + net + "\" dev=\"0\" speed=\"100000\" port=\"1\" gdr=\"0\"/></nic>";
    pci += "</pci>";
  }
  return "<system version=\"1\"><cpu numaid=\"0\" affinity=\"00000001\" arch=\"x86_64\" vendor=\"GenuineIntel\">" +
         pci + "</cpu></system>";
}

std::map<std::string, std::string> classified(const Topology& t) {
  std::map<std::string, std::string> kinds;
  for (const auto& g : t.gpus) kinds[g.bus_id] = "GPU";
  for (const auto& n : t.nics) kinds[n.bus_id] = std::string(to_string(n.kind));
  for (const auto& p : t.pci) {
    if (p.subtype == "NVSwitch") kinds[p.bus_id] = "NVSwitch";
  }
  return kinds;
}

// The same devices through hwloc and through an NCCL dump: the same GPUs, NVSwitches and NIC kinds.
TEST(PciIds, HwlocAndNcclSourcesClassifyAlike) {
  if (!hwloc_available()) GTEST_SKIP() << "built without hwloc";
  auto from_hwloc = parse_topology(hwloc_xml(kMachine), "machine.xml");
  ASSERT_TRUE(from_hwloc.ok()) << from_hwloc.status().message();
  const Topology dump = from_nccl(nccl_xml(kMachine));
  const std::map<std::string, std::string> expected = {{"0000:10:00.0", "GPU"},       {"0000:11:00.0", "NVSwitch"},
                                                       {"0000:20:00.0", "efa"},       {"0000:21:00.0", "ethernet"},
                                                       {"0000:30:00.0", "roce"},      {"0000:31:00.0", "ethernet"},
                                                       {"0000:40:00.0", "infiniband"}};
  EXPECT_EQ(classified(*from_hwloc), expected);
  EXPECT_EQ(classified(dump), expected);
}

}  // namespace
}  // namespace collbench::topo
