// Where a command's JSON goes, agreed by all ranks before anything runs.
#pragma once

#include <string>

#include "bench/bootstrap/bootstrap.hpp"

namespace collbench::cli {

// Rank 0 picks the path (a new unique name when the file exists and !force) and checks that
// it can be written; every rank gets the same answer, so a bad path stops the whole job with
// one usage error. Empty `requested`: no file, empty result.
Result<std::string> agree_output_path(bootstrap::Bootstrap& boot, const std::string& requested, bool force);

// nccl-tests' JSON (a drop-in's -J, run's --nccl-tests-json), named as nccl-tests names it
// when the file exists (report::choose_nccl_tests_output_path); `flag` names it in errors.
Result<std::string> agree_nccl_tests_json_path(bootstrap::Bootstrap& boot, const std::string& requested, bool force,
                                               const std::string& flag);

// --metrics: the path as given (each run replaces the last one's file, as node_exporter's
// textfile collector wants), checked by rank 0 and agreed as above.
Result<std::string> agree_metrics_path(bootstrap::Bootstrap& boot, const std::string& requested);

}  // namespace collbench::cli
