// The timed loop. Between barrier and final synchronization it only launches collectives and
// takes clock marks: no allocation, no I/O, no checking.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/run_options.hpp"

namespace collbench::engine {

struct LoopTimes {
  double elapsed_us = 0;              // host clock around the loop, final synchronize included
  std::vector<double> iteration_us;   // this rank's per-iteration times
};

// Runs `iterations` launches of `call` in nccl-tests' blocking mode `blocking` (-z).
// With -z 3 the per-iteration barriers are excluded: elapsed is then the sum of iterations.
Status time_loop(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                 std::uint64_t iterations, int blocking, const FaultPlan& fault, LoopTimes& out);

// Untimed launches that bring connections, caches and clocks to steady state.
Status warm_up(backend::Backend& backend, const backend::Call& call, std::uint64_t iterations);

}  // namespace collbench::engine
