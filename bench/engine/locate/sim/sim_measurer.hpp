// The Measurer of a simulated job (docs/design/locate-at-scale.md, section 3): this process
// holds every rank, and every measurement is computed from the model's network (network.hpp)
// and noise instead of run. The locator's plan and verdict are the same code as in a real job;
// only the samples and the clock differ: now_s() is simulated time, advanced by each step's
// modelled length and by a modelled cost of every agreement.
//
// Per step: every transfer of the step shares the network at once (the flow model), and a
// rank's iteration takes as long as the slower of what it sends and what it receives. An
// all_reduce is a ring: 2(n-1)/n of the message over the slowest of the ring's links, plus
// 2 log2(n) latencies, after the last rank arrives (a cpu_starved host's ranks arrive late).
// Each iteration time is multiplied by the noise (lognormal, and spikes), drawn from the
// model's seed: the same model and seed give the same samples.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/engine/locate/measurer.hpp"
#include "bench/engine/locate/sim/model.hpp"
#include "bench/engine/locate/sim/network.hpp"

namespace collbench::engine::locate::sim {

// Deterministic draws (splitmix64; normals by Box-Muller): the same on every machine and
// standard library, unlike std::normal_distribution.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // in [0, 1)
  double normal();

 private:
  std::uint64_t state_;
};

// Where the simulated ranks run, as the verdict names them: host "h<i>" (i from 0), local rank,
// and leaf "s<l>" when the model has leaves.
std::vector<RankPlace> places_of(const Network& network);

class SimMeasurer final : public Measurer {
 public:
  static Result<SimMeasurer> make(const SimModel& model);

  int size() const override { return network_.ranks(); }
  Held held() const override { return {0, network_.ranks()}; }
  std::string backend_name() const override { return "simulated"; }
  double now_s() const override { return clock_s_; }
  bool stop_requested() const override { return false; }
  Status allocate(std::uint64_t /*bytes*/) override { return ok_status(); }
  Result<std::vector<LoopSamples>> all_reduce(std::uint64_t bytes, std::uint64_t warmup,
                                              std::uint64_t iterations) override;
  Result<std::vector<LoopSamples>> p2p(std::uint64_t bytes, std::span<const RingPeers> peers, std::uint64_t warmup,
                                       std::uint64_t iterations, double quiet_s) override;
  Status max(std::span<double> values) override;
  Status gather(std::span<const std::byte> held_rows, std::span<std::byte> all) override;
  void mark_cpu() override {}
  std::vector<CpuRow> cpu_since_mark(double seconds) override;

  const Network& network() const { return network_; }
  // How many steps (timed loops) and agreements the run took: what a real run's overhead scales with.
  std::uint64_t steps() const { return steps_; }
  std::uint64_t agreements() const { return agreements_; }

 private:
  SimMeasurer(Network network, SimModel model)
      : network_(std::move(network)), model_(std::move(model)), draws_(model_.seed) {}
  double noisy(double seconds);
  double late_s(int rank) const;
  void agreement();

  Network network_;
  SimModel model_;
  Draws draws_;
  double clock_s_ = 0;
  std::uint64_t steps_ = 0;
  std::uint64_t agreements_ = 0;
};

}  // namespace collbench::engine::locate::sim
