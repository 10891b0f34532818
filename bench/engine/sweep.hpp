// The rows of a sweep: every (collective, type, op, root, size) in nccl-tests' order, and the
// buffer sizes they need. Pure functions of the options and the rank count.
#pragma once

#include <cstdint>
#include <string>
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
  ReduceOp op{};  // ignored when the collective takes no op
  int root = -1;  // -1 when the collective takes no root
  std::uint64_t requested_bytes = 0;
  coll::Counts counts;
};

struct SweepPlan {
  std::vector<RowPlan> rows;  // one cycle
  // Each of the send and receive buffers holds this much (as nccl-tests allocates both at
  // -e): the largest send or receive buffer of any row, in-place layouts included. The
  // rotation moves through it.
  std::uint64_t buffer_bytes = 0;
  std::vector<std::string> notes;  // "Reducing maxBytes to ... due to memory limitation"
};

// The largest -e whose two buffers fit a device of `memory_bytes`, as nccl-tests reserves
// room (1 GiB per 16 GiB installed, at most 4 GiB, plus 1 GiB for the rest). collbench checks
// in closed form, so there is no third (expected) buffer.
std::uint64_t max_bytes_for_device(std::uint64_t memory_bytes);

// Fails with a usage error naming the flag when no row can run (sizes too small for the type
// and the rank count) or a root is out of range. `device_memory_bytes` (0: host memory) is
// the smallest device of the job: -e is lowered to fit it, with a note, not refused.
Result<SweepPlan> plan_sweep(const RunOptions& options, int nranks, std::uint64_t device_memory_bytes = 0);

}  // namespace collbench::engine
