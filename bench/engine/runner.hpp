// Runs a sweep: for every planned row and both placements, warm up, time, check, combine
// across ranks, and hand a plain record to the reporter (on rank 0 the real reporters, on
// the other ranks a reporter that drops everything).
#pragma once

#include <stop_token>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/sweep.hpp"
#include "bench/engine/watchdog.hpp"
#include "report/reporter.hpp"

namespace collbench::engine {

struct RunOutcome {
  std::vector<report::SizeRecord> rows;
  report::RunSummary summary;
};

// What the run's header and JSON say of its buffers: the bytes the runner allocates for each
// of send and receive, and whether the timed loop rotates through them (timing.hpp, Rotation).
report::BufferConfig buffer_config(const SweepPlan& plan, const RunOptions& options);

class Runner {
 public:
  // `watchdog` may be null (no time limit).
  Runner(const RunOptions& options, bootstrap::Bootstrap& boot, backend::Backend& backend, report::Reporter& reporter,
         Watchdog* watchdog = nullptr)
      : options_(options), boot_(boot), backend_(backend), reporter_(reporter), watchdog_(watchdog) {}

  // Usage errors (sizes, roots, launch modes) surface here, before anything is allocated or
  // written. Every rank calls it (the ranks agree on the smallest device's memory).
  Result<SweepPlan> plan() const;

  // A failure ends the sweep; the reporters still receive end() with the error and the
  // rows finished so far. A stop request ends it after the current row (status interrupted).
  Result<RunOutcome> run(const SweepPlan& plan, const report::RunContext& context, const std::stop_token& stop);

 private:
  Status allocate(const SweepPlan& plan);
  // Every row of every cycle; stops at the first error (kInterrupted on a stop request).
  Status sweep(const SweepPlan& plan, const std::stop_token& stop, RunOutcome& outcome);
  Result<report::SizeRecord> measure_row(const RowPlan& row);
  Result<report::Measurement> measure_placement(const RowPlan& row, report::Placement placement);
  Status finish(RunOutcome& outcome, report::RunStatus status, const Status& error);

  const RunOptions& options_;
  bootstrap::Bootstrap& boot_;
  backend::Backend& backend_;
  report::Reporter& reporter_;
  Watchdog* watchdog_;
  backend::Buffer send_;
  backend::Buffer recv_;
  std::uint64_t buffer_bytes_ = 0;  // each of send_ and recv_
  std::vector<std::string> hosts_;  // host of each rank
  std::uint64_t max_rss_bytes_ = 0;
};

// A reporter for the ranks that do not report.
class NullReporter final : public report::Reporter {
 public:
  Status begin(const report::RunContext&) override { return ok_status(); }
  Status row(const report::SizeRecord&) override { return ok_status(); }
  Status end(const report::RunSummary&) override { return ok_status(); }
};

}  // namespace collbench::engine
