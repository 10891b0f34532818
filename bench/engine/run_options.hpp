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
};

enum class Average : int { kRank0 = 0, kMean = 1, kMin = 2, kMax = 3 };

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
  std::uint64_t iterations = 20;
  std::uint64_t warmup_iterations = 1;
  std::uint64_t check_iterations = 1;
  Average average = Average::kMean;
  int blocking = 0;               // nccl-tests -z: 0 async, 1 sync+barrier, 2 sync, 3 barrier excluded
  std::uint64_t run_cycles = 1;   // 0: until interrupted
  std::uint64_t seed = 1;
  std::size_t max_mismatches = 8; // reported per row and rank
  FaultPlan fault;
};

}  // namespace collbench::engine
