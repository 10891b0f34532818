// Timing one placement of one row: a fixed number of iterations (nccl-tests' -n), or
// precision-driven batches that stop once the median is known well enough.
//
// Each rank keeps its own samples: every iteration where the clock marks iterations (host
// memory, or -I 1), otherwise one per batch (its mean; nccl-tests' GPU timing, with no event
// between launches). Ranks agree on when to stop and combine their statistics through a few
// numbers per batch, never the samples themselves: a -n 1000000 row costs the bootstrap
// what a -n 20 row does. The exception is -I 1, where nccl-tests gathers every process's
// iteration times for its JSON, and so do we, once per placement after the timing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/timing.hpp"
#include "bench/engine/watchdog.hpp"
#include "report/record.hpp"

namespace collbench::engine {

struct Timing {
  std::uint64_t iterations = 0;
  std::uint64_t operations = 0;  // collectives timed: iterations x aggregation (x graph replays)
  double elapsed_us = 0;         // this rank's host clock around its timed loops, summed
  // Per-iteration statistics (when iterations were marked): each figure is the largest over
  // ranks of that rank's own figure, the first -K samples left out. Empty otherwise.
  report::TimeStats per_iteration;
  // With -I 1 (options.per_iteration_timing) and marked iterations: every rank's samples, in
  // rank order; empty otherwise.
  std::vector<std::vector<double>> rank_iteration_us;
};

struct RowTiming {
  std::uint64_t row_bytes = 0;  // the requested size (for size-limited faults)
  Rotation rotation;
};

// `what` names the row for the watchdog.
Result<Timing> measure(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                       const RunOptions& options, const RowTiming& row, Watchdog* watchdog, const std::string& what);

// How far the precision-driven mode has come, as every rank agrees on it.
struct PrecisionState {
  std::uint64_t samples = 0;     // the same count on every rank
  std::uint64_t iterations = 0;  // iterations timed so far
  double spent_s = 0;            // the largest time any rank spent in timed loops
  double spread = 0;             // the largest relative half-width of any rank's median CI
};

// Whether the samples so far are enough (pure; every rank decides from the same state).
bool precise_enough(const PrecisionState& state, const Precision& precision);

// How many iterations the next batch should run. `per_sample` iterations make one sample (1
// when iterations are marked).
std::uint64_t next_batch(const PrecisionState& state, const Precision& precision, bool per_iteration_samples);

// Graph batches replay one capture: their size is fixed.
inline constexpr std::uint64_t kGraphIterations = 20;

}  // namespace collbench::engine
