// The entry function of every fuzz target, by name. A name here is also the fuzzer binary
// (collbench_fuzz_<name>), its seed corpus (corpus/<name>/) and its regressions (regressions/<name>/).
#pragma once

#include "tests/fuzz/fuzz_target.hpp"

namespace collbench::fuzz {

void units(Bytes input);           // parse_size, parse_uint, parse_double, format_bytes
void types(Bytes input);           // data types, reduction ops and collectives by name
void fault(Bytes input);           // collbench run --fault SPEC
void run_flags(Bytes input);       // collbench run's whole command line through CLI11, then the sweep plan
void run_json(Bytes input);        // run files as compare and report read and render them
void document_json(Bytes input);   // collbench validate: any collbench JSON against its schema
void topo_nccl_xml(Bytes input);   // NCCL topology XML (NCCL_TOPO_FILE)
void topo_hwloc_xml(Bytes input);  // hwloc XML, through our pre-check and then hwloc itself
void topo_json(Bytes input);       // collbench topology JSON (topo -o, run files, gathered from ranks)
void rendezvous(Bytes input);      // TCP rendezvous frames and message payloads
void fabric(Bytes input);          // locate --fabric: topology.conf, its JSON form, hostlists

}  // namespace collbench::fuzz
