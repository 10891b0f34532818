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
  std::uint64_t operations = 0;       // collectives that elapsed_us covers
  std::vector<double> iteration_us;   // this rank's per-iteration times, per operation
};

// Refuses -m and -G on a backend that cannot group or capture launches, and -G with a
// blocking mode (a synchronization cannot be captured). Before anything runs.
Status check_launch_modes(const RunOptions& options, const backend::Backend& backend);

// Runs `iterations` iterations of `call` as nccl-tests does: each iteration is one
// launch, or a group of options.aggregation launches (-m); -z selects the blocking mode, and
// with -z 3 the per-iteration barriers are excluded (elapsed is then the sum of iterations).
// With -G N the iterations are captured once and the capture is replayed N times; only the
// replays are timed, and the per-iteration samples are the N replays.
// `call_bytes` is the row's requested size (for size-limited faults); `watchdog` (may be
// null) learns the iteration reached, for timeout reports.
Status time_loop(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                 const RunOptions& options, std::uint64_t iterations, std::uint64_t call_bytes, Watchdog* watchdog,
                 LoopTimes& out);

// Untimed iterations (grouped like the timed ones) that bring connections, caches and clocks
// to steady state.
Status warm_up(backend::Backend& backend, const backend::Call& call, const RunOptions& options);

}  // namespace collbench::engine
