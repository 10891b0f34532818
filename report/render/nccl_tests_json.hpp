// A run in nccl-tests' own JSON, the file that nccl-tests 2.19's -J writes ("version": 3,
// src/util.cu), so that tools made for it read collbench runs: nccl-tests'
// tools/analyze_perf_json.py and pipelines that parse those files.
//
// Byte for byte as upstream's hand-made writer lays it out: one line, no spaces, no final
// newline; numbers with printf's "%lf" (six decimals), counts as integers; booleans as the
// strings "true"/"false", NaN as the string "nan", root as the string "%6i" ("    -1");
// "errors" holds the library's last error, "" when there is none, as ncclGetLastError gives it.
// Strings stop at the first byte outside printable ASCII, as upstream's sanitizer does.
//
// Where collbench knows less or differently than nccl-tests:
//  - start_time and end_time are the run's UTC times ("YYYY-MM-DD HH:MM:SS"); upstream
//    prints local time;
//  - env holds collbench's allow-listed variables, not the whole environment;
//  - nccl_version is NCCL's version code when the backend was NCCL, else 0;
//  - the per-iteration blocks (-I 1) list times_us and per_process_max_times_us when the
//    rows carry every rank's samples (a live run); a run document keeps only statistics,
//    so a converted run gives those and an empty times_us;
//  - a non-finite number other than NaN is the string "inf" or "-inf" (upstream's bare inf
//    would not be JSON);
//  - a skipped size has no entry, a placement that did not run is null;
//  - a run of several collectives is one document whose results hold them all.
#pragma once

#include <string>

#include "report/documents/run_json.hpp"

namespace collbench::report {

inline constexpr int kNcclTestsJsonVersion = 3;

std::string nccl_tests_json_text(const RunDocument& document);

// "NCCL 2.21.5" -> 22105 (NCCL_VERSION_CODE since 2.9); 0 for anything else.
int nccl_version_code(const std::string& backend_library);

}  // namespace collbench::report
