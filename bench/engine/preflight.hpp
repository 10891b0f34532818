// `collbench preflight`: prove that the process group works before measuring anything.
// Every rank all_reduces its own rank number and must receive N(N-1)/2; before that, the
// launch itself is checked for the classic mistakes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "report/preflight_record.hpp"

namespace collbench::engine {

// What this rank knows about itself before any exchange.
struct PreflightInputs {
  std::string host;
  double bootstrap_ms = 0;
  double communicator_ms = 0;
  int launcher_world_size = -1;
  int visible_devices = -1;
  std::optional<int> corrupt_rank;  // test-only: this rank's received value is altered
};

// On rank 0 the report is complete; on the others it holds only their own line.
Result<report::PreflightReport> run_preflight(bootstrap::Bootstrap& boot, backend::Backend& backend,
                                              const PreflightInputs& inputs);

// The launch mistakes visible in the rank table (pure; unit-tested on made-up tables).
std::vector<report::PreflightProblem> find_launch_problems(const std::vector<report::PreflightRank>& ranks,
                                                           int world_size);

}  // namespace collbench::engine
