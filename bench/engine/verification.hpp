// The checked runs after timing: fresh inputs, one collective, every element of every rank's
// output compared with its closed-form expected value, results combined across ranks.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/sweep.hpp"
#include "report/record.hpp"

namespace collbench::engine {

struct CheckOutcome {
  std::uint64_t wrong = 0;                   // summed over ranks
  std::vector<report::Mismatch> mismatches;  // on every rank: the first few of all ranks
};

// The buffers of one placement (out-of-place or in-place) of one row.
struct PlacementBuffers {
  void* send = nullptr;  // may point into the receive region (in place)
  void* recv = nullptr;
  void* region = nullptr;          // the receive buffer's start
  std::uint64_t region_bytes = 0;  // bytes of it that this placement uses
};

struct CheckContext {
  const RowPlan& row;
  const backend::Call& call;
  const PlacementBuffers& buffers;
  const std::vector<std::string>& hosts;  // host of each rank
};

// Runs options.check_iterations checked collectives, stopping at the first that finds a
// wrong element (as nccl-tests does).
Result<CheckOutcome> check_row(backend::Backend& backend, bootstrap::Bootstrap& boot, const RunOptions& options,
                               const CheckContext& ctx);

// The seed of the data of check iteration `iteration` (the timed runs use iteration 0).
std::uint64_t check_seed(const RunOptions& options, std::uint64_t iteration);

}  // namespace collbench::engine
