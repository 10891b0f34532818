// The --expect of `collbench run` and `health`: an expectations file, read by rank 0 and
// shared, so that it need exist on rank 0's host only; or a published reference by name
// ("h200-8x", "h200-8x:85") or "auto" (the one that matches the job's GPUs and hosts), which
// every rank resolves alike from the devices of all ranks.
#pragma once

#include <string>
#include <vector>

#include "bench/bootstrap/bootstrap.hpp"
#include "report/expect_record.hpp"

namespace collbench::cli {

// Empty `spec`: no expectations. A file that cannot be read or is malformed, an unknown
// reference, or "auto" without a match is a usage error (exit 2) of one line, on every rank.
// `device_name` and `host` are this rank's, for "auto".
Result<std::vector<report::Expectation>> agree_expectations(bootstrap::Bootstrap& boot, const std::string& spec,
                                                            const std::string& device_name, const std::string& host);

}  // namespace collbench::cli
