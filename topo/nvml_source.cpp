// The NVML adapter. The few NVML declarations it needs are written out here (the ABI has been
// stable since the _v2/_v3 entry points) so that the build needs no CUDA headers.
#include "topo/nvml_source.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "topo/nvlink.hpp"
#include "topo/pci_ids.hpp"

namespace collbench::topo {
namespace {

using NvmlReturn = int;
using NvmlDevice = struct NvmlDeviceOpaque*;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr unsigned kNvmlMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS (Hopper, Blackwell)
constexpr unsigned kNvmlFeatureEnabled = 1;
constexpr unsigned kNvmlRemoteGpu = 0;  // nvmlIntNvLinkDeviceType_t
constexpr unsigned kNvmlRemoteIbmNpu = 1;
constexpr unsigned kNvmlRemoteSwitch = 2;

// nvmlPciInfo_t as filled by the _v3 / _v2 entry points.
struct NvmlPciInfo {
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];
};

template <typename Fn>
Fn symbol(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  Fn fn = nullptr;
  static_assert(sizeof fn == sizeof p);
  std::memcpy(&fn, &p, sizeof fn);
  return fn;
}

std::string bus_id_of(const NvmlPciInfo& pci) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.0", pci.domain & 0xffffu, pci.bus & 0xffu, pci.device & 0x1fu);
  return buf;
}

class Nvml {
 public:
  Nvml() = default;
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;
  ~Nvml() {
    if (initialized_) shutdown_();
    if (lib_ != nullptr) dlclose(lib_);
  }

  // "" on success, else why NVML is not usable.
  std::string open() {
    if (lib_ != nullptr) return "NVML is already open";  // a second dlopen would leak the first handle
    lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib_ == nullptr) return "libnvidia-ml.so.1 could not be loaded (no NVIDIA driver)";
    init_ = symbol<NvmlReturn (*)()>(lib_, "nvmlInit_v2");
    shutdown_ = symbol<NvmlReturn (*)()>(lib_, "nvmlShutdown");
    error_string_ = symbol<const char* (*)(NvmlReturn)>(lib_, "nvmlErrorString");
    count_ = symbol<NvmlReturn (*)(unsigned*)>(lib_, "nvmlDeviceGetCount_v2");
    handle_ = symbol<NvmlReturn (*)(unsigned, NvmlDevice*)>(lib_, "nvmlDeviceGetHandleByIndex_v2");
    pci_ = symbol<NvmlReturn (*)(NvmlDevice, NvmlPciInfo*)>(lib_, "nvmlDeviceGetPciInfo_v3");
    name_ = symbol<NvmlReturn (*)(NvmlDevice, char*, unsigned)>(lib_, "nvmlDeviceGetName");
    uuid_ = symbol<NvmlReturn (*)(NvmlDevice, char*, unsigned)>(lib_, "nvmlDeviceGetUUID");
    link_state_ = symbol<NvmlReturn (*)(NvmlDevice, unsigned, unsigned*)>(lib_, "nvmlDeviceGetNvLinkState");
    link_version_ = symbol<NvmlReturn (*)(NvmlDevice, unsigned, unsigned*)>(lib_, "nvmlDeviceGetNvLinkVersion");
    remote_pci_ = symbol<NvmlReturn (*)(NvmlDevice, unsigned, NvmlPciInfo*)>(lib_,
                                                                             "nvmlDeviceGetNvLinkRemotePciInfo_v2");
    remote_type_ = symbol<NvmlReturn (*)(NvmlDevice, unsigned, unsigned*)>(lib_, "nvmlDeviceGetNvLinkRemoteDeviceType");
    if (init_ == nullptr || shutdown_ == nullptr || count_ == nullptr || handle_ == nullptr || pci_ == nullptr ||
        link_state_ == nullptr || remote_pci_ == nullptr) {
      return "libnvidia-ml.so.1 lacks the NVLink entry points (driver too old)";
    }
    if (const NvmlReturn rc = init_(); rc != kNvmlSuccess) return "nvmlInit failed: " + error(rc);
    initialized_ = true;
    return "";
  }

  struct Gpu {
    std::string bus_id, name, uuid;
    GpuLinks links;
  };

  std::vector<Gpu> scan() {
    std::vector<Gpu> gpus;
    unsigned n = 0;
    if (!initialized_) return gpus;  // open() failed: the entry points may be null
    if (count_(&n) != kNvmlSuccess) return gpus;
    std::vector<NvmlDevice> devices(n, nullptr);
    for (unsigned i = 0; i < n; ++i) {
      NvmlPciInfo pci{};
      Gpu g;
      if (handle_(i, &devices[i]) != kNvmlSuccess || pci_(devices[i], &pci) != kNvmlSuccess) continue;
      g.bus_id = bus_id_of(pci);
      g.name = text(name_, devices[i]);
      g.uuid = text(uuid_, devices[i]);
      g.links = links(devices[i], g.bus_id);
      gpus.push_back(std::move(g));
    }
    return gpus;
  }

 private:
  std::string error(NvmlReturn rc) const {
    const char* text = error_string_ != nullptr ? error_string_(rc) : nullptr;
    return text != nullptr ? text : "NVML error " + std::to_string(rc);
  }

  static std::string text(NvmlReturn (*fn)(NvmlDevice, char*, unsigned), NvmlDevice device) {
    char buf[96] = {};
    if (fn == nullptr || fn(device, buf, sizeof buf - 1) != kNvmlSuccess) return "";
    return buf;
  }

  GpuLinks links(NvmlDevice device, const std::string& bus_id) const {
    GpuLinks out;
    out.bus_id = bus_id;
    for (unsigned link = 0; link < kNvmlMaxLinks; ++link) {
      unsigned active = 0;
      if (link_state_(device, link, &active) != kNvmlSuccess) continue;  // link absent on this GPU
      if (active != kNvmlFeatureEnabled) continue;
      unsigned version = 0;
      if (out.per_link_gbps == 0 && link_version_ != nullptr && link_version_(device, link, &version) == kNvmlSuccess) {
        out.per_link_gbps = nvlink_gbps_per_link(static_cast<int>(version));
      }
      NvmlPciInfo remote{};
      if (remote_pci_(device, link, &remote) != kNvmlSuccess) continue;
      LinkTarget target;
      target.bus_id = bus_id_of(remote);
      unsigned type = kNvmlRemoteGpu;
      const bool typed = remote_type_ != nullptr && remote_type_(device, link, &type) == kNvmlSuccess;
      target.peer = !typed                      ? LinkPeer::kUnknown
                    : type == kNvmlRemoteSwitch ? LinkPeer::kNvSwitch
                    : type == kNvmlRemoteIbmNpu ? LinkPeer::kCpu
                                                : LinkPeer::kGpu;
      out.targets.push_back(target);
    }
    if (out.per_link_gbps == 0) out.per_link_gbps = 25;
    return out;
  }

  void* lib_ = nullptr;
  bool initialized_ = false;
  NvmlReturn (*init_)() = nullptr;
  NvmlReturn (*shutdown_)() = nullptr;
  const char* (*error_string_)(NvmlReturn) = nullptr;
  NvmlReturn (*count_)(unsigned*) = nullptr;
  NvmlReturn (*handle_)(unsigned, NvmlDevice*) = nullptr;
  NvmlReturn (*pci_)(NvmlDevice, NvmlPciInfo*) = nullptr;
  NvmlReturn (*name_)(NvmlDevice, char*, unsigned) = nullptr;
  NvmlReturn (*uuid_)(NvmlDevice, char*, unsigned) = nullptr;
  NvmlReturn (*link_state_)(NvmlDevice, unsigned, unsigned*) = nullptr;
  NvmlReturn (*link_version_)(NvmlDevice, unsigned, unsigned*) = nullptr;
  NvmlReturn (*remote_pci_)(NvmlDevice, unsigned, NvmlPciInfo*) = nullptr;
  NvmlReturn (*remote_type_)(NvmlDevice, unsigned, unsigned*) = nullptr;
};

// Without the remote type (older drivers), a peer that is one of NVML's GPUs is a GPU, an IBM
// bridge is a POWER CPU, and anything else is taken for an NVSwitch, as NCCL does.
void resolve_peers(const Topology& topo, std::vector<Nvml::Gpu>& gpus) {
  for (Nvml::Gpu& g : gpus) {
    for (LinkTarget& t : g.links.targets) {
      if (t.peer != LinkPeer::kUnknown) continue;
      bool is_gpu = false;
      for (const Nvml::Gpu& other : gpus) is_gpu = is_gpu || other.bus_id == t.bus_id;
      const int pci = topo.pci_by_bus_id(t.bus_id);
      const bool ibm = pci >= 0 && topo.pci[static_cast<std::size_t>(pci)].vendor_id == pci_ids::kVendorIbm;
      t.peer = is_gpu ? LinkPeer::kGpu : ibm ? LinkPeer::kCpu : LinkPeer::kNvSwitch;
    }
  }
}

}  // namespace

NvLinkInfo read_nvml(Topology& topo) {
  NvLinkInfo info;
  Nvml nvml;
  if (const std::string why = nvml.open(); !why.empty()) {
    info.note = "no NVLink info: " + why;
    return info;
  }
  std::vector<Nvml::Gpu> gpus = nvml.scan();
  resolve_peers(topo, gpus);
  std::vector<GpuLinks> links;
  for (Nvml::Gpu& g : gpus) {
    // NVML reports function 0; GPUs are single-function devices.
    if (const int index = topo.gpu_by_bus_id(g.bus_id); index >= 0) {
      Gpu& gpu = topo.gpus[static_cast<std::size_t>(index)];
      if (!g.name.empty()) gpu.name = g.name;
      if (gpu.uuid.empty()) gpu.uuid = g.uuid;
    }
    links.push_back(std::move(g.links));
  }
  info = build_nvlinks(topo, links, NvLinkSource::kNvml);
  if (gpus.empty()) info.note = "NVML sees no GPUs";
  return info;
}

}  // namespace collbench::topo
