#include "topo/discover.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "common/strings.hpp"
#include "topo/hwloc_source.hpp"
#include "topo/hwloc_xml_check.hpp"
#include "topo/hwloc_xml_notes.hpp"
#include "topo/json.hpp"
#include "topo/nccl_source.hpp"
#include "topo/nvml_source.hpp"
#include "topo/sysfs_source.hpp"
#include "topo/xml_reader.hpp"

namespace collbench::topo {
namespace {

constexpr std::uintmax_t kMaxFileBytes = 64u << 20;

// hwloc 2.9 refuses format 3.0, which hwloc 2.10 reads and converts (its lstopo writes 2.0).
Status newer_hwloc_xml(const std::string& origin, const std::string& version) {
  const std::string ours = hwloc_version_string().empty() ? "no hwloc" : "hwloc " + hwloc_version_string();
  return Status::error(ErrorCode::kUsage, origin + ": hwloc XML " + version +
                                              " needs hwloc >= 2.10 (or 3.x); this collbench uses " + ours +
                                              ". Convert it where a newer hwloc is installed: lstopo -i " + origin +
                                              " --export-xml-flags v2 out.xml (hwloc 3.x; hwloc 2.10: lstopo -i " +
                                              origin + " out.xml), then read out.xml");
}

Result<std::string> read_file(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    return Status::error(ErrorCode::kIo, "cannot read topology file " + path + ": no such file");
  }
  if (std::filesystem::is_directory(status)) {
    return Status::error(ErrorCode::kIo, "cannot read topology file " + path + ": it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::error(ErrorCode::kIo, "cannot read topology file " + path + ": " + std::strerror(errno));
  }
  std::string content;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    content.append(buf, static_cast<std::size_t>(in.gcount()));
    if (content.size() > kMaxFileBytes) {
      return Status::error(ErrorCode::kUsage, path + ": larger than 64 MiB, not a topology file");
    }
  }
  if (in.bad()) return Status::error(ErrorCode::kIo, "error while reading topology file " + path);
  return content;
}

}  // namespace

std::string_view to_string(FileFormat format) {
  switch (format) {
    case FileFormat::kHwlocXml: return "hwloc XML";
    case FileFormat::kNcclXml: return "NCCL topology XML";
    case FileFormat::kJson: return "collbench JSON";
  }
  return "unknown";
}

Result<FileFormat> detect_format(std::string_view content, const std::string& origin) {
  const std::string_view head = trim(content.substr(0, 4096));
  if (head.empty()) return Status::error(ErrorCode::kUsage, origin + ": empty file, not a topology");
  if (head.front() == '{') return FileFormat::kJson;
  auto root = peek_xml_root(content);
  if (!root.ok()) return Status::error(ErrorCode::kUsage, origin + ": " + root.status().message());
  if (root->name == "system") return FileFormat::kNcclXml;
  // hwloc 0.9 wrote <root>.
  if (root->name == "topology" || root->name == "root") {
    if (hwloc_xml_major(*root) >= 3) return newer_hwloc_xml(origin, *root->attribute("version"));
    return FileFormat::kHwlocXml;
  }
  return Status::error(ErrorCode::kUsage, origin + ": not a topology file (root element <" + root->name +
                                              ">; expected hwloc's <topology> or NCCL's <system>)");
}

Result<Topology> parse_topology(std::string_view bytes, const std::string& origin) {
  // A UTF-16 or UTF-32 file is read as UTF-8 here; hwloc (libxml2) gets the file's own bytes.
  auto wide = wide_xml_as_utf8(bytes);
  if (!wide.ok()) return Status::error(ErrorCode::kUsage, origin + ": " + wide.status().message());
  const std::string_view content = *wide ? std::string_view(**wide) : bytes;
  COLLBENCH_ASSIGN_OR_RETURN(const FileFormat format, detect_format(content, origin));
  if (format == FileFormat::kJson) return topology_from_json(content, origin);
  // Our own reader checks well-formedness first, so that hwloc never sees a broken file and
  // every format fails with the same kind of message.
  auto xml = parse_xml(content);
  if (!xml.ok()) return Status::error(ErrorCode::kUsage, origin + ": " + xml.status().message());
  if (format == FileFormat::kNcclXml) return topology_from_nccl_xml(*xml, origin);
  COLLBENCH_RETURN_IF_ERROR(check_hwloc_xml_prolog(content, origin));
  COLLBENCH_RETURN_IF_ERROR(check_hwloc_xml(*xml, origin));
  const int major = hwloc_xml_major(*xml);
  COLLBENCH_ASSIGN_OR_RETURN(Topology topo, hwloc_load_xml(bytes, origin, hwloc_xml_format_name(major)));
  topo.notes = hwloc_xml_notes(*xml, major, topo);
  return topo;
}

Result<Topology> load_topology_file(const std::string& path) {
  COLLBENCH_ASSIGN_OR_RETURN(const std::string content, read_file(path));
  return parse_topology(content, path);
}

Result<Topology> discover_live() {
  COLLBENCH_ASSIGN_OR_RETURN(Topology topo, hwloc_discover_live());
  add_sysfs_details(topo);
  topo.nvlink = read_nvml(topo);
  return topo;
}

}  // namespace collbench::topo
