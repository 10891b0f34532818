// The Measurer of a real job: this process holds its own rank and measures with the backend
// (loops.hpp), agrees through the bootstrap, and reads the wall clock and this thread's CPU.
#pragma once

#include <chrono>
#include <stop_token>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/locate/loops.hpp"
#include "bench/engine/locate/measurer.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/watchdog.hpp"
#include "common/cpu_usage.hpp"

namespace collbench::engine::locate {

class JobMeasurer final : public Measurer {
 public:
  // `start`: when the command began (the budget counts from there); `watchdog` may be null.
  JobMeasurer(bootstrap::Bootstrap& boot, backend::Backend& backend, const FaultPlan& fault, Watchdog* watchdog,
              std::chrono::steady_clock::time_point start, std::stop_token stop)
      : boot_(boot), backend_(backend), loops_(boot, backend, fault, watchdog), start_(start), stop_(std::move(stop)) {}

  int size() const override { return boot_.size(); }
  Held held() const override { return {boot_.rank(), 1}; }
  std::string backend_name() const override { return backend_.info().name; }
  double now_s() const override;
  bool stop_requested() const override { return stop_.stop_requested(); }
  Status allocate(std::uint64_t bytes) override { return loops_.allocate(bytes); }
  Result<std::vector<LoopSamples>> all_reduce(std::uint64_t bytes, std::uint64_t warmup,
                                              std::uint64_t iterations) override;
  Result<std::vector<LoopSamples>> p2p(std::uint64_t bytes, std::span<const RingPeers> peers, std::uint64_t warmup,
                                       std::uint64_t iterations, double quiet_s) override;
  Status max(std::span<double> values) override { return boot_.allreduce(values, ReduceOp::kMax); }
  Status gather(std::span<const std::byte> held_rows, std::span<std::byte> all) override {
    return boot_.allgather(held_rows, all);
  }
  void mark_cpu() override { cpu_mark_ = cpu_usage_now(); }
  std::vector<CpuRow> cpu_since_mark(double seconds) override;

 private:
  bootstrap::Bootstrap& boot_;
  backend::Backend& backend_;
  Loops loops_;
  std::chrono::steady_clock::time_point start_;
  std::stop_token stop_;
  CpuUsage cpu_mark_;
};

}  // namespace collbench::engine::locate
