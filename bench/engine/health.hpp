// `collbench health`'s steps on one rank, in order and within a budget: the preflight, the
// hosts' topologies, then (only when the preflight passed on every rank) a short checked sweep.
// It measures and returns plain records; the verdict is a pure function of them
// (report/analysis/health.hpp) that the CLI applies, prints and writes. What the engine does
// not own (the hosts' topologies belong to topo/, the run's context and live table to the CLI)
// it asks of a HealthHost.
#pragma once

#include <optional>
#include <stop_token>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/preflight.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/runner.hpp"
#include "bench/engine/sweep.hpp"
#include "bench/engine/watchdog.hpp"
#include "report/health_record.hpp"
#include "report/preflight_record.hpp"
#include "report/record.hpp"
#include "report/reporter.hpp"

namespace collbench::engine {

struct HealthOptions {
  RunOptions run;
  double budget_s = 60;  // every step is watched with it; the sweep must fit in half of it
  bool topology = true;  // false: --no-topology
};

// The steps the CLI takes for the health check.
class HealthHost {
 public:
  virtual ~HealthHost() = default;
  // Every host's topology against the reference: the check on rank 0, an empty one elsewhere.
  virtual Result<report::TopologyCheck> check_topology() = 0;
  // The sweep's context (who runs what, where, the expected busbw); every rank calls it.
  virtual Result<report::RunContext> sweep_context(const SweepPlan& plan) = 0;
  // Where this rank's sweep rows go (rank 0: the table), for the sweep's duration.
  virtual report::Reporter& sweep_reporter() = 0;
  // After the sweep: ok false when it failed (the CLI then stops this process's communicators).
  virtual void sweep_ended(bool ok) = 0;
};

struct HealthSweep {
  report::RunContext context;
  RunOutcome outcome;
};

// What the steps found; rank 0's is complete.
struct HealthMeasurements {
  report::PreflightReport preflight;
  report::TopologyCheck topology;
  std::optional<HealthSweep> sweep;  // absent when the preflight failed
};

class HealthRun {
 public:
  // `watchdog` may be null (no time limit).
  HealthRun(const HealthOptions& options, bootstrap::Bootstrap& boot, backend::Backend& backend, Watchdog* watchdog,
            HealthHost& host)
      : options_(options), boot_(boot), backend_(backend), watchdog_(watchdog), host_(host) {}

  // The sweep's plan (the run flags checked); a usage error when the sweep's longest time does
  // not fit in its share of the budget. Every rank calls it.
  Result<SweepPlan> plan() const;
  // The steps in order. A step's error ends it; step() then names the step.
  Result<HealthMeasurements> run(const SweepPlan& plan, const PreflightInputs& inputs, const std::stop_token& stop);
  report::HealthCheck step() const { return step_; }

 private:
  Status check_budget(const SweepPlan& plan) const;
  Result<bool> agree_go(const report::PreflightReport& preflight);
  Result<HealthSweep> sweep(const SweepPlan& plan, const std::stop_token& stop);

  const HealthOptions& options_;
  bootstrap::Bootstrap& boot_;
  backend::Backend& backend_;
  Watchdog* watchdog_;
  HealthHost& host_;
  report::HealthCheck step_ = report::HealthCheck::kPreflight;
};

}  // namespace collbench::engine
