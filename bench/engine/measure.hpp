// Timing one placement of one row: a fixed number of iterations (nccl-tests' -n), or
// precision-driven batches that stop once the median is known well enough.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/watchdog.hpp"

namespace collbench::engine {

struct Timing {
  std::uint64_t iterations = 0;
  std::uint64_t operations = 0;      // collectives timed: iterations x aggregation (x graph replays)
  double elapsed_us = 0;             // this rank's host clock around its timed loops, summed
  std::vector<double> iteration_us;  // each iteration's time on the slowest rank
};

// `what` names the row for the watchdog; `row_bytes` is the requested size (for faults).
Result<Timing> measure(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                       const RunOptions& options, std::uint64_t row_bytes, Watchdog* watchdog, const std::string& what);

// Precision-driven mode: whether the samples so far are enough (pure; every rank decides the
// same from the same cross-rank samples).
inline constexpr std::uint64_t kGraphIterations = 20;

bool precise_enough(const std::vector<double>& iteration_us, const Precision& precision);

// Precision-driven mode: how many iterations the next batch should run.
std::uint64_t next_batch(const std::vector<double>& iteration_us, const Precision& precision);

}  // namespace collbench::engine
