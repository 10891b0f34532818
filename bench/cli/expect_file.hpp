// The --expect file of `collbench run`, read by rank 0 and shared, so that it need exist on
// rank 0's host only and every rank stops with the same usage error when it is bad.
#pragma once

#include <string>
#include <vector>

#include "bench/bootstrap/bootstrap.hpp"
#include "report/expect_record.hpp"

namespace collbench::cli {

// Empty `path`: no expectations. A file that cannot be read or is malformed is a usage error
// (exit 2) of one line naming the file, on every rank.
Result<std::vector<report::Expectation>> agree_expectations(bootstrap::Bootstrap& boot, const std::string& path);

}  // namespace collbench::cli
