// Where topologies come from: the live machine or a file whose format is recognised from its
// content (hwloc 2.x XML, NCCL topology XML, or collbench's own topology JSON).
//
// Errors are one-line Statuses: kIo when a file cannot be read, kUsage when its content is not a
// topology collbench can read (malformed XML, hwloc 3.x XML, unknown root element), kUnsupported
// when the build lacks hwloc. A file without GPUs is not an error: the topology has no GPUs.
#pragma once

#include <string>
#include <string_view>

#include "common/status.hpp"
#include "topo/topology.hpp"

namespace collbench::topo {

enum class FileFormat { kHwlocXml, kNcclXml, kJson };
std::string_view to_string(FileFormat format);  // "hwloc XML", "NCCL topology XML", "collbench JSON"

// The format of `content`; `origin` names it in error messages.
Result<FileFormat> detect_format(std::string_view content, const std::string& origin);

// This machine: hwloc (KEEP_IMPORTANT I/O), then sysfs for link widths and NIC ports, then NVML
// for NVLinks and GPU names when the driver is present.
Result<Topology> discover_live();

// A topology file of any supported format.
Result<Topology> load_topology_file(const std::string& path);

// The same from memory (a gathered buffer, a test string).
Result<Topology> parse_topology(std::string_view bytes, const std::string& origin);

}  // namespace collbench::topo
