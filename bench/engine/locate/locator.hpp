// `collbench locate`: a bounded plan of measurements that names the slow host, rank, pair or
// rail. Every rank runs it in step: a probe, a plan from the probe (plan.hpp), the straggler
// phase (all_reduce arrival), the pair phase (round-robin sendrecv), the split-group phase
// (rings within hosts and rails), the confirmation of suspects, then the verdict
// (verdict.hpp). Every decision (sizes, repetitions, cuts, suspects) is taken from figures all
// ranks share through the Measurer (max, gather), never from one rank's own clock, so that all
// ranks take the same steps. Vendor-free: it measures only through the Measurer, which a real
// job implements over the bootstrap and the Backend interface (job_measurer.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/engine/locate/measurer.hpp"
#include "bench/engine/locate/outlier.hpp"
#include "bench/engine/locate/schedule.hpp"
#include "bench/engine/run_options.hpp"
#include "bench/engine/watchdog.hpp"
#include "report/locate_record.hpp"
#include "report/reporter.hpp"

namespace collbench::engine::locate {

struct LocateOptions {
  double budget_s = 60;
  // The budget counts from here (the command's start), so setup is paid from it too.
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::uint64_t min_bytes = 4096;
  std::uint64_t max_bytes = 8u << 20;
  FaultPlan fault;  // test-only: slow_rank delays that rank's every operation
  OutlierRule rule;
  std::vector<RankPlace> places;  // every rank, in rank order
};

using ProgressSink = std::function<void(const report::Progress&)>;

// On rank 0 the report holds the measurements, comparisons, findings, verdict and how the
// budget was spent (the caller adds the context and the rank table); on the other ranks only
// the budget. `progress` may be empty. A real job: measured by a JobMeasurer over the
// bootstrap and backend, the budget counted from options.start.
Result<report::LocateReport> run_locate(const LocateOptions& options, bootstrap::Bootstrap& boot,
                                        backend::Backend& backend, Watchdog* watchdog, const ProgressSink& progress,
                                        std::stop_token stop);

// The same plan and verdict over any Measurer (measurer.hpp): the process that holds rank 0
// gets the full report. options.start and options.fault are the JobMeasurer's, unused here.
Result<report::LocateReport> run_locate(const LocateOptions& options, Measurer& m, const ProgressSink& progress);

}  // namespace collbench::engine::locate
