// Who is who: every rank's host, pid and device, gathered so rank 0 can report them.
#pragma once

#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "report/record.hpp"

namespace collbench::engine {

Result<std::vector<report::RankInfo>> gather_rank_table(bootstrap::Bootstrap& boot, const backend::DeviceInfo& device,
                                                        const std::string& host);

// Host names in order of first appearance.
std::vector<std::string> distinct_hosts(const std::vector<report::RankInfo>& ranks);

}  // namespace collbench::engine
