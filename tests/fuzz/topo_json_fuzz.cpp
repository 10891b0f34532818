// collbench topology JSON (collbench topo --format json, context.topology of run files, and
// what every rank sends rank 0).
#include "tests/fuzz/fuzz_entries.hpp"
#include "tests/fuzz/topology_checks.hpp"

namespace collbench::fuzz {

void topo_json(Bytes input) { check_topology_file(as_text(input), topo::FileFormat::kJson); }

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(topo_json)
