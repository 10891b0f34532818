// hwloc 2.x XML (lstopo --of xml), checked by topo/hwloc_xml_check.* before hwloc's importer sees it:
// hwloc 2.9 trusts its input and crashes on some malformed documents.
#include "tests/fuzz/fuzz_entries.hpp"
#include "tests/fuzz/topology_checks.hpp"

namespace collbench::fuzz {

void topo_hwloc_xml(Bytes input) { check_topology_file(as_text(input), topo::FileFormat::kHwlocXml); }

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(topo_hwloc_xml)
