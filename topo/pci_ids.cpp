#include "topo/pci_ids.hpp"

#include <array>

#include "common/strings.hpp"

namespace collbench::topo {

bool is_gpu(const PciIdentity& id) {
  const bool vendor = id.vendor_id == pci_ids::kVendorNvidia || id.vendor_id == 0;
  return vendor && (id.class_id == pci_ids::kClassVga || id.class_id == pci_ids::kClass3d);
}

bool is_nvswitch(const PciIdentity& id) {
  return id.vendor_id == pci_ids::kVendorNvidia && id.class_id == pci_ids::kClassOtherBridge;
}

bool is_network_device(const PciIdentity& id) {
  return (id.class_id >> 8) == pci_ids::kBaseClassNetwork || id.class_id == pci_ids::kClassSerialInfiniband;
}

bool is_efa_device(const PciIdentity& id) {
  return id.vendor_id == pci_ids::kVendorAmazon && (id.device_id & pci_ids::kEfaDeviceMask) == pci_ids::kEfaDeviceBase;
}

namespace {

bool is_efa_name(std::string_view rdma) { return starts_with(rdma, "rdmap") || starts_with(rdma, "efa"); }
bool is_omnipath_name(std::string_view rdma) { return starts_with(rdma, "hfi1") || starts_with(rdma, "qib"); }

}  // namespace

bool is_verbs_device_name(std::string_view name) {
  // The names the kernel's RDMA drivers give their devices (drivers/infiniband/hw/*).
  static constexpr std::array<std::string_view, 14> kPrefixes = {"mlx4_", "mlx5_", "bnxt_re", "irdma", "i40iw",
                                                                 "rdmap", "efa",   "hfi1",    "qib",   "ionic",
                                                                 "erdma", "hns",   "qedr",    "cxgb4"};
  for (std::string_view p : kPrefixes) {
    if (starts_with(name, p)) return true;
  }
  return false;
}

PciIdentity identity_of(const PciNode& node) {
  return {.vendor_id = node.vendor_id, .device_id = node.device_id, .class_id = node.class_id};
}

NicKind classify_nic(const PciIdentity& id, std::string_view rdma_device) {
  if (is_efa_device(id) || is_efa_name(rdma_device)) return NicKind::kEfa;
  if (is_omnipath_name(rdma_device)) return NicKind::kOmniPath;
  if (id.class_id == pci_ids::kClassInfiniband || id.class_id == pci_ids::kClassSerialInfiniband) {
    return NicKind::kInfiniband;
  }
  if (!rdma_device.empty()) return NicKind::kRoce;
  if ((id.class_id >> 8) == pci_ids::kBaseClassNetwork) return NicKind::kEthernet;
  return NicKind::kOther;
}

}  // namespace collbench::topo
