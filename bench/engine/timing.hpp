// The timed loop. Between barrier and final synchronization it only launches collectives and
// takes clock marks: no allocation, no I/O, no checking.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/watchdog.hpp"

namespace collbench::engine {

struct LoopTimes {
  double elapsed_us = 0;              // host clock around the loop, final synchronize included
  std::vector<double> iteration_us;   // this rank's per-iteration times
};

// Runs `iterations` launches of `call` in nccl-tests' blocking mode `blocking` (-z).
// With -z 3 the per-iteration barriers are excluded: elapsed is then the sum of iterations.
// `call_bytes` is the row's requested size (for size-limited faults); `watchdog` (may be null)
// learns the iteration reached, for timeout reports.
Status time_loop(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                 std::uint64_t iterations, int blocking, const FaultPlan& fault, std::uint64_t call_bytes,
                 Watchdog* watchdog, LoopTimes& out);

// Untimed launches that bring connections, caches and clocks to steady state.
Status warm_up(backend::Backend& backend, const backend::Call& call, std::uint64_t iterations);

}  // namespace collbench::engine
