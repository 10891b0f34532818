#include "topo/json.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

namespace collbench::topo {
namespace {

using Json = nlohmann::ordered_json;

std::string hex4(std::uint16_t value) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", value);
  return buf;
}

std::uint16_t from_hex4(const Json& j) {
  const std::string text = j.get<std::string>();
  return static_cast<std::uint16_t>(std::stoul(text, nullptr, 16) & 0xffffu);
}

Json link_json(const PciLink& l) {
  return Json{{"gbps", l.gbps},         {"gts", l.gts},         {"width", l.width},
              {"max_gbps", l.max_gbps}, {"max_gts", l.max_gts}, {"max_width", l.max_width}};
}

Json pci_json(const PciNode& n, std::size_t id) {
  Json j{{"id", id},
         {"kind", to_string(n.kind)},
         {"parent", n.parent < 0 ? Json(nullptr) : Json(n.parent)},
         {"bus_id", n.bus_id},
         {"bus_range", n.bus_range},
         {"vendor_id", hex4(n.vendor_id)},
         {"device_id", hex4(n.device_id)},
         {"subvendor_id", hex4(n.subvendor_id)},
         {"subdevice_id", hex4(n.subdevice_id)},
         {"class_id", hex4(n.class_id)},
         {"subtype", n.subtype},
         {"name", n.name},
         {"link", link_json(n.link)},
         {"upstream_link", n.upstream_link},
         {"bridge_weight", n.bridge_weight},
         {"cpus", n.cpus.to_list()},
         {"numa_nodes", n.numa_nodes.to_list()},
         {"os_devices", n.os_devices}};
  return j;
}

Json model_json(const Topology& t) {
  Json j{{"schema", kTopologySchemaName},
         {"schema_version", kTopologySchemaVersion},
         {"host", t.host},
         {"source", to_string(t.source)},
         {"origin", t.origin},
         {"tool_version", t.tool_version},
         {"cpus", t.cpus.to_list()},
         {"allowed_cpus", t.allowed_cpus.to_list()},
         {"allowed_numa_nodes", t.allowed_numa_nodes.to_list()}};
  Json& packages = j["packages"] = Json::array();
  for (const Package& p : t.packages) {
    packages.push_back({{"os_index", p.os_index},
                        {"cpus", p.cpus.to_list()},
                        {"numa_nodes", p.numa_nodes.to_list()},
                        {"model", p.model}});
  }
  Json& nodes = j["numa_nodes"] = Json::array();
  for (const NumaNode& n : t.numa_nodes) {
    nodes.push_back({{"os_index", n.os_index}, {"cpus", n.cpus.to_list()}, {"memory_bytes", n.memory_bytes}});
  }
  Json& pci = j["pci"] = Json::array();
  for (std::size_t i = 0; i < t.pci.size(); ++i) pci.push_back(pci_json(t.pci[i], i));
  Json& gpus = j["gpus"] = Json::array();
  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    const Gpu& g = t.gpus[i];
    gpus.push_back({{"index", i},
                    {"pci", g.pci},
                    {"bus_id", g.bus_id},
                    {"vendor_id", hex4(g.vendor_id)},
                    {"device_id", hex4(g.device_id)},
                    {"name", g.name},
                    {"uuid", g.uuid},
                    {"os_devices", g.os_devices}});
  }
  Json& nics = j["nics"] = Json::array();
  for (std::size_t i = 0; i < t.nics.size(); ++i) {
    const Nic& n = t.nics[i];
    Json ports = Json::array();
    for (const NicPort& p : n.ports) {
      ports.push_back(
          {{"number", p.number}, {"state", p.state}, {"rate_gbps", p.rate_gbps}, {"link_layer", p.link_layer}});
    }
    nics.push_back({{"index", i},
                    {"pci", n.pci},
                    {"bus_id", n.bus_id},
                    {"vendor_id", hex4(n.vendor_id)},
                    {"device_id", hex4(n.device_id)},
                    {"kind", to_string(n.kind)},
                    {"name", n.name},
                    {"description", n.description},
                    {"os_devices", n.os_devices},
                    {"ports", ports}});
  }
  Json pairs = Json::array();
  for (const NvLink& l : t.nvlink.pairs) {
    pairs.push_back({{"gpu_a", l.gpu_a},
                     {"gpu_b", l.gpu_b},
                     {"links", l.links},
                     {"gbps", l.gbps},
                     {"via_nvswitch", l.via_nvswitch}});
  }
  j["nvlink"] = {{"source", to_string(t.nvlink.source)}, {"note", t.nvlink.note}, {"pairs", pairs}};
  j["warnings"] = t.warnings;
  j["notes"] = t.notes;
  return j;
}

Json path_json(const Path& p) {
  return Json{{"smi", smi_name(p)},
              {"nccl", nccl_name(p)},
              {"pci", to_string(p.pci)},
              {"nvlinks", p.nvlinks},
              {"gbps", p.gbps()}};
}

Json matrix_json(const std::vector<std::vector<Path>>& m) {
  Json rows = Json::array();
  for (const auto& row : m) {
    Json r = Json::array();
    for (const Path& p : row) r.push_back(path_json(p));
    rows.push_back(std::move(r));
  }
  return rows;
}

Json analysis_json(const Analysis& a) {
  Json affinity = Json::array();
  for (const GpuAffinity& g : a.affinity) {
    affinity.push_back({{"gpu", g.gpu},
                        {"numa_nodes", g.numa_nodes.to_list()},
                        {"cpus", g.cpus.to_list()},
                        {"locality_known", g.locality_known},
                        {"bind_cpus", g.bind_cpus.to_list()},
                        {"nic", g.nic < 0 ? Json(nullptr) : Json(g.nic)},
                        {"nic_path", g.nic < 0 ? Json(nullptr) : path_json(g.nic_path)},
                        {"equally_close_nics", g.equally_close},
                        {"nccl_nic", g.nccl_nic < 0 ? Json(nullptr) : Json(g.nccl_nic)},
                        {"no_local_nic", g.no_local_nic},
                        {"numactl", g.numactl},
                        {"mpirun", g.mpirun}});
  }
  return Json{{"gpu_gpu", matrix_json(a.paths.gpu_gpu)}, {"gpu_nic", matrix_json(a.paths.gpu_nic)},
              {"nic_nic", matrix_json(a.paths.nic_nic)}, {"affinity", affinity},
              {"mpirun_mapping", a.mpirun_mapping},      {"notes", a.notes}};
}

IndexSet set_from(const Json& j, const char* key) {
  if (!j.contains(key)) return IndexSet();
  auto set = IndexSet::from_list(j.at(key).get<std::string>());
  if (!set.ok()) throw std::invalid_argument(set.status().message());
  return *set;
}

// nlohmann turns a floating-point number into an integer with a plain cast, undefined beyond
// the integer's range (found by fuzzing: 1.8e20 as an int); files come from other machines, so
// integers are checked: an integer in range, or an exception the reader turns into an error.
template <typename T>
T integer(const Json& v) {
  if (!v.is_number_integer()) throw std::invalid_argument("expected an integer, found " + v.dump());
  const bool fits = v.is_number_unsigned() ? std::in_range<T>(v.get<std::uint64_t>())
                                           : std::in_range<T>(v.get<std::int64_t>());
  if (!fits) throw std::out_of_range("integer out of range: " + v.dump());
  return v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>()) : static_cast<T>(v.get<std::int64_t>());
}

template <typename T>
T read(const Json& v) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return integer<T>(v);
  } else {
    return v.get<T>();
  }
}

template <typename T>
T value_or(const Json& j, const char* key, T fallback) {
  return j.contains(key) && !j.at(key).is_null() ? read<T>(j.at(key)) : fallback;
}

PciNode pci_from(const Json& j) {
  PciNode n;
  const auto kind = j.at("kind").get<std::string>();
  n.kind = kind == "host_bridge" ? PciKind::kHostBridge : kind == "bridge" ? PciKind::kBridge : PciKind::kDevice;
  n.parent = value_or<int>(j, "parent", -1);
  n.bus_id = value_or<std::string>(j, "bus_id", "");
  n.bus_range = value_or<std::string>(j, "bus_range", "");
  n.vendor_id = from_hex4(j.at("vendor_id"));
  n.device_id = from_hex4(j.at("device_id"));
  n.subvendor_id = from_hex4(j.at("subvendor_id"));
  n.subdevice_id = from_hex4(j.at("subdevice_id"));
  n.class_id = from_hex4(j.at("class_id"));
  n.subtype = value_or<std::string>(j, "subtype", "");
  n.name = value_or<std::string>(j, "name", "");
  const Json& l = j.at("link");
  n.link = {l.at("gbps").get<double>(),     l.at("gts").get<double>(),     integer<int>(l.at("width")),
            l.at("max_gbps").get<double>(), l.at("max_gts").get<double>(), integer<int>(l.at("max_width"))};
  n.upstream_link = value_or<bool>(j, "upstream_link", true);
  n.bridge_weight = value_or<int>(j, "bridge_weight", 1);
  n.cpus = set_from(j, "cpus");
  n.numa_nodes = set_from(j, "numa_nodes");
  n.os_devices = value_or<std::vector<std::string>>(j, "os_devices", {});
  return n;
}

Topology model_from(const Json& j) {
  Topology t;
  t.host = value_or<std::string>(j, "host", "");
  t.source = source_kind_from_string(value_or<std::string>(j, "source", "")).value_or(SourceKind::kJson);
  t.origin = value_or<std::string>(j, "origin", "");
  t.tool_version = value_or<std::string>(j, "tool_version", "");
  t.cpus = set_from(j, "cpus");
  t.allowed_cpus = set_from(j, "allowed_cpus");
  t.allowed_numa_nodes = set_from(j, "allowed_numa_nodes");
  for (const Json& p : j.at("packages")) {
    t.packages.push_back({integer<std::uint32_t>(p.at("os_index")), set_from(p, "cpus"), set_from(p, "numa_nodes"),
                          value_or<std::string>(p, "model", "")});
  }
  for (const Json& n : j.at("numa_nodes")) {
    t.numa_nodes.push_back(
        {integer<std::uint32_t>(n.at("os_index")), set_from(n, "cpus"), value_or<std::uint64_t>(n, "memory_bytes", 0)});
  }
  for (const Json& p : j.at("pci")) t.pci.push_back(pci_from(p));
  for (const Json& g : j.at("gpus")) {
    t.gpus.push_back({integer<int>(g.at("pci")), g.at("bus_id").get<std::string>(), from_hex4(g.at("vendor_id")),
                      from_hex4(g.at("device_id")), value_or<std::string>(g, "name", ""),
                      value_or<std::string>(g, "uuid", ""), value_or<std::vector<std::string>>(g, "os_devices", {})});
  }
  for (const Json& n : j.at("nics")) {
    Nic nic;
    nic.pci = integer<int>(n.at("pci"));
    nic.bus_id = n.at("bus_id").get<std::string>();
    nic.vendor_id = from_hex4(n.at("vendor_id"));
    nic.device_id = from_hex4(n.at("device_id"));
    nic.kind = nic_kind_from_string(value_or<std::string>(n, "kind", "")).value_or(NicKind::kOther);
    nic.name = value_or<std::string>(n, "name", "");
    nic.description = value_or<std::string>(n, "description", "");
    nic.os_devices = value_or<std::vector<std::string>>(n, "os_devices", {});
    for (const Json& p : n.at("ports")) {
      nic.ports.push_back({integer<int>(p.at("number")), value_or<std::string>(p, "state", ""),
                           value_or<double>(p, "rate_gbps", 0), value_or<std::string>(p, "link_layer", "")});
    }
    t.nics.push_back(std::move(nic));
  }
  const Json& nv = j.at("nvlink");
  t.nvlink.source = nvlink_source_from_string(value_or<std::string>(nv, "source", "")).value_or(NvLinkSource::kNone);
  t.nvlink.note = value_or<std::string>(nv, "note", "");
  for (const Json& l : nv.at("pairs")) {
    t.nvlink.pairs.push_back({integer<int>(l.at("gpu_a")), integer<int>(l.at("gpu_b")), integer<int>(l.at("links")),
                              l.at("gbps").get<double>(), value_or<bool>(l, "via_nvswitch", false)});
  }
  t.warnings = value_or<std::vector<std::string>>(j, "warnings", {});
  t.notes = value_or<std::vector<std::string>>(j, "notes", {});
  return t;
}

}  // namespace

std::string topology_to_json(const Topology& topo, const Analysis* analysis, int indent) {
  Json j = model_json(topo);
  if (analysis != nullptr) j["analysis"] = analysis_json(*analysis);
  // Names come from files and other machines: invalid UTF-8 is replaced, never an exception.
  return j.dump(indent < 0 ? -1 : indent, ' ', false, Json::error_handler_t::replace);
}

Result<Topology> topology_from_json(std::string_view text, const std::string& origin) {
  const Json j = Json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::error(ErrorCode::kUsage, origin + ": not valid JSON");
  }
  const auto schema = j.find("schema");
  if (schema == j.end() || !schema->is_string() || *schema != kTopologySchemaName) {
    return Status::error(ErrorCode::kUsage, origin + ": not a " + std::string(kTopologySchemaName) + " document");
  }
  const auto version = j.find("schema_version");
  if (version == j.end() || !version->is_number_integer() || *version != kTopologySchemaVersion) {
    return Status::error(ErrorCode::kUsage, origin + ": unsupported " + std::string(kTopologySchemaName) +
                                                " schema_version (this build reads " +
                                                std::to_string(kTopologySchemaVersion) + ")");
  }
  Topology topo;
  try {
    topo = model_from(j);
  } catch (const std::exception& e) {
    return Status::error(ErrorCode::kUsage, origin + ": malformed topology JSON: " + e.what());
  }
  // Indices come from outside: finalize() drops devices that do not fit and may reorder GPUs,
  // so NVLinks are re-keyed by bus id and dropped when they name GPUs that are not there.
  std::vector<std::string> bus_of_gpu;
  for (const Gpu& g : topo.gpus) bus_of_gpu.push_back(g.bus_id);
  const std::size_t known_warnings = topo.warnings.size();
  finalize(topo);
  // The document already carries the warnings finalize() gave when it was written.
  for (std::size_t i = known_warnings; i < topo.warnings.size();) {
    const auto end = topo.warnings.begin() + static_cast<std::ptrdiff_t>(known_warnings);
    if (std::find(topo.warnings.begin(), end, topo.warnings[i]) != end) {
      topo.warnings.erase(topo.warnings.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  const auto remap = [&](int index) {
    return index < 0 || index >= static_cast<int>(bus_of_gpu.size())
               ? -1
               : topo.gpu_by_bus_id(bus_of_gpu[static_cast<std::size_t>(index)]);
  };
  for (NvLink& l : topo.nvlink.pairs) {
    l.gpu_a = remap(l.gpu_a);
    l.gpu_b = remap(l.gpu_b);
    if (l.gpu_a > l.gpu_b) std::swap(l.gpu_a, l.gpu_b);
  }
  std::erase_if(topo.nvlink.pairs, [](const NvLink& l) { return l.gpu_a < 0 || l.gpu_a == l.gpu_b; });
  return topo;
}

}  // namespace collbench::topo
