// The rows of a sweep: every (collective, type, op, root, size) in nccl-tests' order, and the
// buffer sizes they need. Pure functions of the options and the rank count.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/coll/collective.hpp"
#include "bench/engine/run_options.hpp"
#include "common/status.hpp"

namespace collbench::engine {

// Message sizes from min to max, multiplying by the step factor or adding the step bytes.
Result<std::vector<std::uint64_t>> size_series(std::uint64_t min_bytes, std::uint64_t max_bytes,
                                               std::uint64_t step_factor, std::uint64_t step_bytes);

struct RowPlan {
  coll::Collective collective{};
  DataType type{};
  ReduceOp op{};      // ignored when the collective takes no op
  int root = -1;      // -1 when the collective takes no root
  std::uint64_t requested_bytes = 0;
  coll::Counts counts;
};

struct SweepPlan {
  std::vector<RowPlan> rows;           // one cycle
  std::uint64_t send_buffer_bytes = 0; // largest send buffer of any row
  std::uint64_t recv_buffer_bytes = 0; // largest receive buffer, in-place layouts included
};

// Fails with a usage error naming the flag when no row can run (sizes too small for the type
// and the rank count) or a root is out of range.
Result<SweepPlan> plan_sweep(const RunOptions& options, int nranks);

}  // namespace collbench::engine
