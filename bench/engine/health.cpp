#include "bench/engine/health.hpp"

#include <array>
#include <charconv>
#include <string>

namespace collbench::engine {
namespace {

// The sweep may use at most this share of --budget, leaving the rest to the start-up, the
// preflight, the topology exchange and the checks.
constexpr double kSweepShareOfBudget = 0.5;

// The shortest text that reads back as `s` (the engine formats no numbers otherwise).
std::string seconds(double s) {
  std::array<char, 32> buf{};
  const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), s).ptr;
  return std::string(buf.data(), end);
}

}  // namespace

Result<SweepPlan> HealthRun::plan() const {
  NullReporter quiet;  // planning reports nothing
  COLLBENCH_ASSIGN_OR_RETURN(SweepPlan plan, Runner(options_.run, boot_, backend_, quiet, watchdog_).plan());
  COLLBENCH_RETURN_IF_ERROR(check_budget(plan));
  return plan;
}

// The precision-driven sweep's longest time must fit in its share of the budget.
Status HealthRun::check_budget(const SweepPlan& plan) const {
  const RunOptions& o = options_.run;
  if (o.iterations != 0 || o.run_cycles == 0) return ok_status();
  const double worst = static_cast<double>(plan.rows.size()) * 2 * o.precision.max_time_s *
                       static_cast<double>(o.run_cycles);
  if (worst <= kSweepShareOfBudget * options_.budget_s) return ok_status();
  return Status::error(ErrorCode::kUsage, "--budget " + seconds(options_.budget_s) + ": the sweep may take up to " +
                                              seconds(worst) + " s (" + std::to_string(plan.rows.size()) +
                                              " rows x 2 placements x --max-time " + seconds(o.precision.max_time_s) +
                                              " s), more than half of it; raise --budget, or lower --max-time or "
                                              "the sizes");
}

Result<HealthMeasurements> HealthRun::run(const SweepPlan& plan, const PreflightInputs& inputs,
                                          const std::stop_token& stop) {
  HealthMeasurements m;
  step_ = report::HealthCheck::kPreflight;
  {
    WatchedStep step(watchdog_, "health: preflight (rank table exchange and all_reduce)", 4);
    COLLBENCH_ASSIGN_OR_RETURN(m.preflight, run_preflight(boot_, backend_, inputs));
  }
  step_ = report::HealthCheck::kTopology;
  if (options_.topology) {
    WatchedStep step(watchdog_, "health: topology exchange");
    COLLBENCH_ASSIGN_OR_RETURN(m.topology, host_.check_topology());
  } else {
    m.topology.not_checked_why = "--no-topology";
  }
  COLLBENCH_ASSIGN_OR_RETURN(const bool go, agree_go(m.preflight));
  if (!go) return m;
  step_ = report::HealthCheck::kData;
  COLLBENCH_ASSIGN_OR_RETURN(m.sweep, sweep(plan, stop));
  return m;
}

// Rank 0 alone knows the launch problems: it tells the others whether to sweep.
Result<bool> HealthRun::agree_go(const report::PreflightReport& preflight) {
  const bool go = preflight.verdict == report::PreflightVerdict::kOk;
  const Result<std::string> shared = bootstrap::broadcast_string(boot_, go ? "go" : "stop");
  if (!shared.ok()) return shared.status();
  return *shared == "go";
}

Result<HealthSweep> HealthRun::sweep(const SweepPlan& plan, const std::stop_token& stop) {
  HealthSweep swept;
  COLLBENCH_ASSIGN_OR_RETURN(swept.context, host_.sweep_context(plan));
  Runner runner(options_.run, boot_, backend_, host_.sweep_reporter(), watchdog_);
  auto outcome = runner.run(plan, swept.context, stop);
  host_.sweep_ended(outcome.ok());
  if (!outcome.ok()) return outcome.status();
  swept.outcome = std::move(*outcome);
  return swept;
}

}  // namespace collbench::engine
