// The timed loop, as nccl-tests times it (common.cu, BenchTime and startColl): a host clock
// around the launches and the final wait, divided by the operations; between barrier and
// final synchronization it only launches collectives and takes clock marks: no allocation,
// no I/O, no checking. Each iteration's operations move through the buffers (rotation) as
// nccl-tests' shift does, unless the buffers stay fixed.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/watchdog.hpp"

namespace collbench::engine {

// nccl-tests' per-iteration shift: operation k moves both buffers by step * (k % steps)
// bytes, step being the larger of the row's send and receive bytes and steps how many such
// steps the allocation holds. Rows below the cache size then read memory a cache has not
// kept, and a library that exchanges pointers sees them change.
struct Rotation {
  std::uint64_t step_bytes = 0;  // 0: fixed buffers
  std::uint64_t steps = 1;

  std::uint64_t shift(std::uint64_t operation) const { return step_bytes * (operation % steps); }
};

// The rotation of a row whose operations use `row_bytes` (max of send and receive bytes) in
// buffers of `capacity_bytes` each; fixed buffers when `fixed` or when only one step fits.
Rotation rotation_for(std::uint64_t row_bytes, std::uint64_t capacity_bytes, bool fixed);

// `call` with both buffers moved by the rotation's shift for operation `operation`.
backend::Call shifted(const backend::Call& call, const Rotation& rotation, std::uint64_t operation);

struct LoopTimes {
  // The host clock around the loop and its final wait (-z 3: around each iteration's launches
  // and wait, without its barrier, summed), as nccl-tests measures it.
  double elapsed_us = 0;
  std::uint64_t operations = 0;      // collectives that elapsed_us covers
  std::vector<double> iteration_us;  // per iteration, per operation; empty when not marked
};

// Refuses -m and -G on a backend that cannot group or capture launches, and -G with -z 1 or
// 2 (a synchronization cannot be captured). Before anything runs.
Status check_launch_modes(const RunOptions& options, const backend::Backend& backend);

// Whether the timed loop marks every iteration: always on clocks whose marks cost the
// measured operations nothing (host), and with -I 1 on the others (CUDA events).
bool marks_iterations(const RunOptions& options, backend::Backend& backend);

// Runs `iterations` iterations of `call` as nccl-tests does: each iteration is one launch,
// or a group of options.aggregation launches (-m); -z selects the blocking mode: 1 waits and
// meets in a barrier after every iteration, 2 waits, 3 waits and then meets in a barrier that
// the time excludes. With -G N the iterations are captured once and the capture is replayed
// N times; only the replays are timed, and the per-iteration samples are the N replays.
// `first_iteration` numbers the iterations for the rotation (continuing across batches).
// `call_bytes` is the row's requested size (for size-limited faults); `watchdog` (may be
// null) learns the iteration reached, for timeout reports.
struct LoopPlan {
  std::uint64_t iterations = 0;
  std::uint64_t first_iteration = 0;
  Rotation rotation;
  std::uint64_t call_bytes = 0;
};
Status time_loop(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                 const RunOptions& options, const LoopPlan& plan, Watchdog* watchdog, LoopTimes& out);

// Untimed iterations (grouped and rotated like the timed ones) that bring connections, caches
// and clocks to steady state.
Status warm_up(backend::Backend& backend, const backend::Call& call, const RunOptions& options,
               const Rotation& rotation);

}  // namespace collbench::engine
