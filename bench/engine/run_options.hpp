// Everything a sweep needs to know, fixed before it starts and passed down by const reference.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bench/coll/collective.hpp"
#include "common/types.hpp"

namespace collbench::engine {

// Test-only faults, injected on purpose to prove that the checks and timeouts work
// (`--fault`, documented as test-only in `collbench run --help`).
struct FaultPlan {
  // Corrupt and slow faults apply only to rows of at least this size.
  std::uint64_t min_bytes = 0;
  // After a checked collective, overwrite one element of this rank's output.
  std::optional<int> corrupt_rank;
  std::uint64_t corrupt_index = 0;
  // Kill this rank (SIGKILL to itself) once it has finished the rows below this size.
  std::optional<int> kill_rank;
  std::uint64_t kill_after_bytes = 0;
  // Sleep this long before each collective on this rank (a straggler).
  std::optional<int> slow_rank;
  std::uint64_t slow_us = 0;
  // locate only: pretend the ranks sit on this many hosts (consecutive blocks), so that one
  // machine exercises the inter-host pairs and the split groups.
  int split_hosts = 0;
  // Rows of exactly this requested size: every `stall_every`-th timed iteration stalls for
  // `stall_us` on every rank (a periodic stall), and/or every timed iteration takes
  // `slow_factor` times as long (one size slowed); for the anomaly checks.
  std::uint64_t at_size = 0;
  std::uint64_t stall_every = 0;
  std::uint64_t stall_us = 0;
  std::uint64_t slow_factor = 0;
};

enum class Average : int { kRank0 = 0, kMean = 1, kMin = 2, kMax = 3 };

// nccl-tests' -z, by its number: what each timed iteration waits for after its launch
// (timing.hpp, time_loop).
enum class Blocking : int {
  kAsync = 0,               // nothing: launches queue, the loop's end waits for them all
  kSyncBarrier = 1,         // its completion, then a barrier of the ranks, both timed
  kSync = 2,                // its completion, no barrier
  kSyncUntimedBarrier = 3,  // its completion, then a barrier the time leaves out
};

// Precision-driven timing (when RunOptions::iterations is 0): iterations run in growing
// batches until the median per-iteration time is known well enough.
struct Precision {
  double min_time_s = 0.05;     // measure each size and placement at least this long...
  double max_time_s = 0.5;      // ...and at most this long (the spread target may not be met)
  double target_spread = 0.02;  // stop when the 95% confidence interval of the median is within +-2%
  std::uint64_t min_iterations = 10;
  std::uint64_t max_iterations = 100000;
};

struct RunOptions {
  std::vector<coll::Collective> collectives{coll::Collective::kAllReduce};
  std::vector<DataType> types{DataType::kFloat};
  std::vector<ReduceOp> ops{ReduceOp::kSum};
  int root = 0;
  bool all_roots = false;
  std::uint64_t min_bytes = 8;
  std::uint64_t max_bytes = std::uint64_t{64} << 20;
  std::uint64_t step_factor = 2;  // 0 when stepping by bytes
  std::uint64_t step_bytes = 0;
  std::uint64_t iterations = 20;  // 0: precision-driven (see Precision)
  Precision precision;
  std::uint64_t warmup_iterations = 1;
  std::uint64_t check_iterations = 1;
  Average average = Average::kMean;
  Blocking blocking = Blocking::kAsync;  // nccl-tests -z
  std::uint64_t aggregation = 1;         // nccl-tests -m: operations launched as one group per iteration
  std::uint64_t graph_launches = 0;      // nccl-tests -G: replays of the captured iterations (0: no capture)
  std::uint64_t run_cycles = 1;          // 0: until interrupted
  // -I 1: mark every iteration (CUDA events on GPUs); host clocks mark them anyway, as they
  // cost nothing that a collective would feel. -K: marks left out of the statistics.
  bool per_iteration_timing = false;
  std::uint64_t per_iter_skip = 0;
  bool report_timestamps = false;  // -S: the table's timestamp column
  // --fixed-buffers: every iteration on the same addresses, instead of nccl-tests' rotation
  // through the allocation (timing.hpp, Rotation).
  bool fixed_buffers = false;
  double min_busbw_gbps = 0;  // NCCL_TESTS_MIN_BW: the average busbw must reach 0.9 x this
  std::uint64_t seed = 1;
  std::size_t max_mismatches = 8;  // reported per row and rank
  coll::CountOptions counts;       // per-peer sizes of variable-count collectives
  FaultPlan fault;
};

}  // namespace collbench::engine
