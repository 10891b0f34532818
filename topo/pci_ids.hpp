#pragma once

// The PCI numbers the topology sources classify devices by, and the one classification every
// source (hwloc, NCCL XML, sysfs, NVML) uses, so that one capture read through two sources
// names the same GPUs and the same kinds of NIC.

#include <cstdint>
#include <string_view>

#include "topo/topology.hpp"

namespace collbench::topo {

namespace pci_ids {
// Vendors, as the Linux kernel's include/linux/pci_ids.h spells them.
inline constexpr std::uint16_t kVendorNvidia = 0x10de;
inline constexpr std::uint16_t kVendorAmazon = 0x1d0f;
inline constexpr std::uint16_t kVendorIbm = 0x1014;
// Class codes (base class and subclass, PCI Code and ID Assignment specification).
inline constexpr std::uint16_t kClassVga = 0x0300;
inline constexpr std::uint16_t kClass3d = 0x0302;
inline constexpr std::uint16_t kClassInfiniband = 0x0207;        // network controller, InfiniBand
inline constexpr std::uint16_t kClassSerialInfiniband = 0x0c06;  // serial bus, InfiniBand (older HCAs)
inline constexpr std::uint16_t kClassPciBridge = 0x0604;
inline constexpr std::uint16_t kClassOtherBridge = 0x0680;  // what an NVSwitch reports
inline constexpr std::uint16_t kBaseClassNetwork = 0x02;
// Amazon's EFA devices: 0xefa0-0xefa3 in the Linux efa driver (efa_main.c), the range kept
// whole for the generations to come. Amazon's other network device, ENA (0xec20...), is Ethernet.
inline constexpr std::uint16_t kEfaDeviceBase = 0xefa0;
inline constexpr std::uint16_t kEfaDeviceMask = 0xfff0;
}  // namespace pci_ids

struct PciIdentity {
  std::uint16_t vendor_id = 0;  // 0: not given (an NCCL dump may leave it out)
  std::uint16_t device_id = 0;
  std::uint16_t class_id = 0;  // base class and subclass, 0x0302
};

// A GPU the NCCL backend can use: a VGA or 3D controller of NVIDIA, or of no vendor given
// (NCCL's dumps list GPUs it found through CUDA; a BMC's VGA always has its vendor).
bool is_gpu(const PciIdentity& id);
bool is_nvswitch(const PciIdentity& id);
// A network device: base class 0x02, or the serial-bus InfiniBand class of older HCAs.
bool is_network_device(const PciIdentity& id);
bool is_efa_device(const PciIdentity& id);
// Whether an NCCL net name is an RDMA (verbs) device, "mlx5_0", rather than a socket interface,
// "eth0": NCCL's dumps give one name for both.
bool is_verbs_device_name(std::string_view name);

// The kind of a network device from its identity and the RDMA device it carries ("" for none):
// EFA by its device id or driver's names, Omni-Path by its driver's names, InfiniBand by
// class, RoCE for any other device with an RDMA device, Ethernet for the rest of class 0x02.
// sysfs corrects InfiniBand against RoCE from the port's link layer when it can read it.
NicKind classify_nic(const PciIdentity& id, std::string_view rdma_device);

PciIdentity identity_of(const PciNode& node);

}  // namespace collbench::topo
