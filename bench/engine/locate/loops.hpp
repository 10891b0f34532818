// The timed loops of `collbench locate`, on any backend: an all_reduce that records how long
// each rank waits inside each call, and point-to-point exchanges between chosen peers. Each
// rank's own per-iteration times come back; combining them across ranks is the caller's job.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/locate/measurer.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/watchdog.hpp"

namespace collbench::engine::locate {

class Loops {
 public:
  // `watchdog` may be null. The test-only slow-rank fault delays every timed operation of
  // that rank, in every phase.
  Loops(bootstrap::Bootstrap& boot, backend::Backend& backend, const FaultPlan& fault, Watchdog* watchdog)
      : boot_(boot), backend_(backend), fault_(fault), watchdog_(watchdog) {}

  // Send and receive buffers for messages up to `bytes`, touched once.
  Status allocate(std::uint64_t bytes);

  // Per iteration: barrier, then this rank enters an all_reduce of `bytes` and waits for it.
  // Records how late after the barrier it entered (a straggler's own delay) and how long it
  // was inside (short for the last to arrive, but also for a rank that finishes early while
  // others still wait on a slow link: that alone cannot tell a culprit from a victim).
  Result<LoopSamples> all_reduce(std::uint64_t bytes, std::uint64_t warmup, std::uint64_t iterations);

  // Every rank calls together; a rank without peers (-1) only keeps step. Per iteration: one
  // exchange of `bytes` each way, synchronized. A rank without peers then stays off the CPU
  // until `quiet_s` after the loop began: waiting in the next exchange would busy-poll, and
  // on a machine whose cores the ranks share that would slow the pairs being measured.
  Result<LoopSamples> p2p(std::uint64_t bytes, int send_peer, int recv_peer, std::uint64_t warmup,
                          std::uint64_t iterations, double quiet_s = 0);

 private:
  bool delayed(std::uint64_t bytes) const;
  void delay() const;

  bootstrap::Bootstrap& boot_;
  backend::Backend& backend_;
  const FaultPlan& fault_;
  Watchdog* watchdog_;
  backend::Buffer send_;
  backend::Buffer recv_;
};

}  // namespace collbench::engine::locate
