// The expectations file of `collbench run --expect FILE` (schema "collbench.expect", version 1,
// documented in docs/health.md):
//   {"schema": "collbench.expect", "version": 1,
//    "rows": [{"collective": "all_reduce", "size_bytes": 1048576, "min_busbw_gbps": 2.5},
//             {"collective": "all_reduce", "size_bytes": "8", "max_time_us": 50,
//              "dtype": "float", "op": "sum", "placement": "in_place"}]}
// Each row names a collective and a size (bytes, or a size such as "1M") and exactly one bound:
// min_busbw_gbps, min_algbw_gbps or max_time_us. Unknown keys are errors, so that a misspelt
// bound cannot pass unnoticed.
#pragma once

#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "report/expect_record.hpp"

namespace collbench::report {

// ErrorCode::kUsage with one line naming the problem ("rows[1]: unknown key 'min_bw'").
Result<std::vector<Expectation>> parse_expectations(std::string_view text);

}  // namespace collbench::report
