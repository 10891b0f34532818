// The context of a run document: who ran what, where, with which options (rank 0 writes it).
#pragma once

#include <string>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/cli/wiring/run_flags.hpp"
#include "bench/engine/sweep.hpp"
#include "report/record.hpp"

namespace collbench::cli {

// An error only when the backend's name is not in this build's registry.
Result<report::RunContext> make_run_context(const RunCommand& cmd, const std::vector<std::string>& argv,
                                            const bootstrap::Bootstrap& boot, const backend::Backend& backend,
                                            std::vector<report::RankInfo> ranks, const engine::SweepPlan& plan);

}  // namespace collbench::cli
