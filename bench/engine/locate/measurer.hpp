// What the locator measures with, and nothing else: the seam between its plan and verdict
// (the phases of phases.hpp) and a real job or a simulated one (docs/design/locate-at-scale.md, section 1).
//
// Every method is called by every process of the job in step, as a collective. A process
// produces the samples of the ranks it *holds*: one rank in a real job (JobMeasurer), every
// rank in a simulation, which then needs no threads or sockets. Decisions are taken only from
// figures that max() or gather() made common, so that every process takes the same steps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bench/engine/locate/schedule.hpp"
#include "common/status.hpp"

namespace collbench::engine::locate {

struct LoopSamples {
  std::vector<double> iteration_us;  // this rank's time of each timed iteration
  std::vector<double> late_us;       // all_reduce: from leaving the barrier to entering the call
  double elapsed_s = 0;              // the whole timed loop, barriers and delays included
};

// The ranks whose samples this process produces: first, first + 1, ..., first + count - 1.
struct Held {
  int first = 0;
  int count = 1;
};

// What the operating system kept from a rank over the pairs, rings and rechecks.
struct CpuRow {
  double involuntary_switches = 0;
  double steal_share = 0;  // NaN: unknown
};

class Measurer {
 public:
  virtual ~Measurer() = default;

  virtual int size() const = 0;  // ranks in the job
  virtual Held held() const = 0;
  virtual std::string backend_name() const = 0;
  // Seconds since the command began: the budget's clock (simulated time in a simulation).
  virtual double now_s() const = 0;
  virtual bool stop_requested() const = 0;

  // Buffers for messages up to `bytes`.
  virtual Status allocate(std::uint64_t bytes) = 0;
  // Per iteration: a barrier, then an all_reduce of `bytes`. One LoopSamples per held rank.
  virtual Result<std::vector<LoopSamples>> all_reduce(std::uint64_t bytes, std::uint64_t warmup,
                                                      std::uint64_t iterations) = 0;
  // Point-to-point exchanges of `bytes`: `peers` holds every rank's (send -1: it sits the step
  // out, and stays quiet until `quiet_s` after the step began). One LoopSamples per held rank.
  // kUnsupported when the backend has no point-to-point exchange.
  virtual Result<std::vector<LoopSamples>> p2p(std::uint64_t bytes, std::span<const RingPeers> peers,
                                               std::uint64_t warmup, std::uint64_t iterations, double quiet_s) = 0;

  // Element-wise maximum over the processes, in place.
  virtual Status max(std::span<double> values) = 0;
  // Every rank's row: `held_rows` holds one row per held rank, `all` receives one per rank.
  virtual Status gather(std::span<const std::byte> held_rows, std::span<std::byte> all) = 0;

  // Starts counting what the operating system takes from the held ranks...
  virtual void mark_cpu() = 0;
  // ... and what it took since, one row per held rank, over `seconds` of the job's time.
  virtual std::vector<CpuRow> cpu_since_mark(double seconds) = 0;
};

}  // namespace collbench::engine::locate
