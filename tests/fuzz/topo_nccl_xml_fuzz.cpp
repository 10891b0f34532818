// NCCL topology XML (NCCL_TOPO_FILE, NCCL_TOPO_DUMP_FILE), through collbench's own XML reader.
#include "tests/fuzz/fuzz_entries.hpp"
#include "tests/fuzz/topology_checks.hpp"

namespace collbench::fuzz {

void topo_nccl_xml(Bytes input) { check_topology_file(as_text(input), topo::FileFormat::kNcclXml); }

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(topo_nccl_xml)
