#include "bench/engine/runner.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>

#include "bench/engine/measure.hpp"
#include "bench/engine/progress_model.hpp"
#include "bench/engine/stats.hpp"
#include "bench/engine/timing.hpp"
#include "bench/engine/verification.hpp"
#include "common/file_io.hpp"

namespace collbench::engine {
namespace {

using report::Placement;

PlacementBuffers buffers_for(const RowPlan& row, Placement placement, const backend::Buffer& send,
                             const backend::Buffer& recv, int rank) {
  const std::uint64_t elem = traits(row.type).size;
  const auto r = static_cast<std::uint64_t>(rank);
  PlacementBuffers b;
  b.region = recv.data();
  if (placement == Placement::kOutOfPlace) {
    b.send = send.data();
    b.recv = recv.data();
    b.region_bytes = row.counts.recv * elem;
  } else {
    // nccl-tests' in-place layout: both pointers inside the receive buffer.
    b.send = recv.at(row.counts.send_inplace_offset * r * elem);
    b.recv = recv.at(row.counts.recv_inplace_offset * r * elem);
    b.region_bytes = std::max(row.counts.send, row.counts.recv) * elem;
  }
  return b;
}

double combine(const std::vector<double>& per_rank, Average mode) {
  double out = per_rank[0];
  for (double t : per_rank) {
    if (mode == Average::kMin) out = std::min(out, t);
    if (mode == Average::kMax) out = std::max(out, t);
  }
  if (mode == Average::kMean) {
    out = 0;
    for (double t : per_rank) out += t;
    out /= static_cast<double>(per_rank.size());
  }
  return out;
}

// How a run that failed with `error` ended, for its report.
report::RunStatus status_after(const Status& error) {
  switch (error.code()) {
    case ErrorCode::kTimeout: return report::RunStatus::kTimeout;
    case ErrorCode::kInterrupted: return report::RunStatus::kInterrupted;
    case ErrorCode::kOk:  // not a failure; a run that ends on it ended wrongly all the same
    case ErrorCode::kInternal:
    case ErrorCode::kUsage:
    case ErrorCode::kComm:
    case ErrorCode::kUnsupported:
    case ErrorCode::kWrongData:
    case ErrorCode::kLaunch:
    case ErrorCode::kIo:
    case ErrorCode::kRegression:
    case ErrorCode::kMismatch:
    case ErrorCode::kOutlier:
    case ErrorCode::kBelowExpectation: return report::RunStatus::kError;
  }
  return report::RunStatus::kError;  // a code outside the enum (a cast): still an error
}

// The largest peak resident set of any rank, in bytes (getrusage reports KiB on Linux).
Result<std::uint64_t> largest_peak_memory(bootstrap::Bootstrap& boot) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::array<double, 1> rss = {static_cast<double>(usage.ru_maxrss) * 1024.0};
  COLLBENCH_RETURN_IF_ERROR(boot.allreduce(rss, ReduceOp::kMax));
  return static_cast<std::uint64_t>(rss[0]);
}

// A signal may reach some ranks only, or reach them between different rows: every rank
// stops at the same row boundary once any of them was asked to.
Result<bool> agree_to_stop(bootstrap::Bootstrap& boot, const std::stop_token& stop) {
  std::array<double, 1> flag = {stop.stop_requested() ? 1.0 : 0.0};
  COLLBENCH_RETURN_IF_ERROR(boot.allreduce(flag, ReduceOp::kMax));
  return flag[0] != 0;
}

std::string describe(const RowPlan& row, Placement placement) {
  const auto& t = coll::traits(row.collective);
  std::string text = std::string(t.name) + " " + std::string(to_string(row.type));
  if (t.takes_op) text += " " + std::string(to_string(row.op));
  if (t.takes_root) text += " root " + std::to_string(row.root);
  return text + " at " + std::to_string(row.requested_bytes) + " B " + report::to_string(placement);
}

}  // namespace

Result<report::Measurement> Runner::measure_placement(const RowPlan& row, Placement placement) {
  const int rank = boot_.rank();
  const std::string what = describe(row, placement);
  const PlacementBuffers buf = buffers_for(row, placement, send_, recv_, rank);
  const backend::Call call{row.collective, row.type, row.op,   row.root,
                           row.counts,     buf.send, buf.recv, placement == Placement::kInPlace};

  const check::DataSpec spec = check::make_data_spec(row.collective, row.type, row.op, boot_.size(), row.root,
                                                     row.counts, check_seed(options_, 0));
  COLLBENCH_RETURN_IF_ERROR(backend_.memory().poison(buf.region, buf.region_bytes));
  COLLBENCH_RETURN_IF_ERROR(backend_.memory().fill_input(buf.send, row.counts.send, spec, rank));
  const std::uint64_t elem = traits(row.type).size;
  const RowTiming row_timing{row.requested_bytes, rotation_for(std::max(row.counts.send, row.counts.recv) * elem,
                                                               buffer_bytes_, options_.fixed_buffers)};
  {
    WatchedStep step(watchdog_, what + ": warm-up", options_.warmup_iterations);
    COLLBENCH_RETURN_IF_ERROR(warm_up(backend_, call, options_, row_timing.rotation));
  }
  COLLBENCH_ASSIGN_OR_RETURN(const Timing timing,
                             measure(backend_, boot_, call, options_, row_timing, watchdog_, what));
  WatchedStep exchange(watchdog_, what + ": exchange of timings and checks", 3 + options_.check_iterations * 3);

  // Cross-rank figures, all outside the timed region.
  report::Measurement m;
  m.placement = placement;
  m.iterations = timing.iterations;
  std::vector<double> per_rank(static_cast<std::size_t>(boot_.size()));
  const double mine = timing.elapsed_us / static_cast<double>(timing.operations);
  COLLBENCH_RETURN_IF_ERROR(
      boot_.allgather(std::as_bytes(std::span(&mine, 1)), std::as_writable_bytes(std::span(per_rank))));
  m.time_us = combine(per_rank, options_.average);
  m.per_iteration = timing.per_iteration;
  m.rank_iteration_us = timing.rank_iteration_us;
  const auto slowest = static_cast<std::size_t>(std::max_element(per_rank.begin(), per_rank.end()) - per_rank.begin());
  m.slowest_rank = static_cast<int>(slowest);
  m.slowest_host = hosts_[slowest];
  m.slowest_rank_time_us = per_rank[slowest];

  const double bytes = coll::algbw_bytes(row.collective, row.counts, static_cast<std::uint32_t>(elem), boot_.size());
  m.algbw_gbps = coll::algbw_gbps(bytes, m.time_us * 1e-6);
  m.busbw_gbps = coll::busbw_gbps(row.collective, m.algbw_gbps, boot_.size());

  // In place, a library that aliases a peer exchange's buffers leaves an undefined result
  // (nccl-tests times it and prints N/A): timed, not checked.
  const bool checkable = placement == Placement::kOutOfPlace || backend_.comm().checks_in_place(row.collective);
  if (options_.check_iterations > 0 && checkable) {
    COLLBENCH_ASSIGN_OR_RETURN(CheckOutcome checked, check_row(backend_, boot_, options_, {row, call, buf, hosts_}));
    m.checked = true;
    m.wrong = checked.wrong;
    m.mismatches = std::move(checked.mismatches);
  }
  return m;
}

Result<SweepPlan> Runner::plan() const {
  COLLBENCH_RETURN_IF_ERROR(check_launch_modes(options_, backend_));
  // The smallest device of the job bounds -e on every rank alike (0 on host memory).
  std::array<double, 1> memory = {static_cast<double>(backend_.device().memory_bytes)};
  COLLBENCH_RETURN_IF_ERROR(boot_.allreduce(memory, ReduceOp::kMin));
  return plan_sweep(options_, boot_.size(), static_cast<std::uint64_t>(memory[0]));
}

Result<report::SizeRecord> Runner::measure_row(const RowPlan& row) {
  const auto& t = coll::traits(row.collective);
  const std::uint32_t elem = traits(row.type).size;
  report::SizeRecord rec;
  rec.collective = std::string(t.name);
  rec.dtype = std::string(to_string(row.type));
  rec.op = t.takes_op ? std::string(to_string(row.op)) : "none";
  rec.root = row.root;
  rec.size_bytes = coll::reported_bytes(row.counts, elem);
  rec.count = row.counts.param;
  if (auto reason = coll::rank_constraint(row.collective, boot_.size())) {
    rec.skipped = *reason;
  } else if (auto why = backend_.comm().unsupported(row.collective, row.type, row.op, boot_.size())) {
    rec.skipped = "not supported by this backend: " + *why;
  } else if (row.counts.param == 0) {
    rec.skipped = "fewer than one element per rank at " + std::to_string(row.requested_bytes) + " B";
  } else {
    for (Placement p : {Placement::kOutOfPlace, Placement::kInPlace}) {
      COLLBENCH_ASSIGN_OR_RETURN(auto m, measure_placement(row, p));
      rec.placements.push_back(std::move(m));
    }
  }
  rec.finished_local = local_now_text();
  return rec;
}

Status Runner::finish(RunOutcome& outcome, report::RunStatus status, const Status& error) {
  outcome.summary = report::summarize(outcome.rows);
  outcome.summary.end_time = utc_now_iso8601();
  outcome.summary.max_rss_bytes = max_rss_bytes_;
  if (status != report::RunStatus::kOk) outcome.summary.status = status;
  if (!error.ok()) outcome.summary.error = error.message();
  return reporter_.end(outcome.summary);
}

report::BufferConfig buffer_config(const SweepPlan& plan, const RunOptions& options) {
  return {options.fixed_buffers ? report::BufferPolicy::kFixed : report::BufferPolicy::kRotated,
          std::max<std::uint64_t>(plan.buffer_bytes, 1)};
}

Status Runner::allocate(const SweepPlan& plan) {
  buffer_bytes_ = buffer_config(plan, options_).bytes_per_buffer;
  COLLBENCH_ASSIGN_OR_RETURN(send_, backend_.allocate(buffer_bytes_));
  COLLBENCH_ASSIGN_OR_RETURN(recv_, backend_.allocate(buffer_bytes_));
  return ok_status();
}

Status Runner::sweep(const SweepPlan& plan, const std::stop_token& stop, RunOutcome& outcome) {
  ProgressModel progress(plan, options_.run_cycles);
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t cycle = 0; options_.run_cycles == 0 || cycle < options_.run_cycles; ++cycle) {
    for (const RowPlan& row : plan.rows) {
      WatchedStep between(watchdog_, "the exchange between rows");
      COLLBENCH_ASSIGN_OR_RETURN(const bool stopping, agree_to_stop(boot_, stop));
      if (stopping) {
        return Status::error(ErrorCode::kInterrupted,
                             "interrupted after " + std::to_string(outcome.rows.size()) + " rows");
      }
      COLLBENCH_ASSIGN_OR_RETURN(auto rec, measure_row(row));
      // A signal seen during the row already saved the report without it: the row is not
      // counted either, and the ranks stop together at the next boundary.
      if (stop.stop_requested()) continue;
      outcome.rows.push_back(std::move(rec));
      COLLBENCH_RETURN_IF_ERROR(reporter_.row(outcome.rows.back()));
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      reporter_.progress(progress.after_row(outcome.rows.back().collective, row.requested_bytes, elapsed));
      if (options_.fault.kill_rank && *options_.fault.kill_rank == boot_.rank() &&
          row.requested_bytes >= options_.fault.kill_after_bytes) {
        std::raise(SIGKILL);  // test-only: a rank that dies mid-sweep
      }
    }
  }
  COLLBENCH_ASSIGN_OR_RETURN(max_rss_bytes_, largest_peak_memory(boot_));
  return ok_status();
}

Result<RunOutcome> Runner::run(const SweepPlan& plan, const report::RunContext& context, const std::stop_token& stop) {
  hosts_.clear();
  for (const auto& r : context.ranks) hosts_.push_back(r.host);
  // The reports exist before the buffers: a job killed while it allocates still leaves a
  // valid (empty, "incomplete") result file.
  COLLBENCH_RETURN_IF_ERROR(reporter_.begin(context));
  RunOutcome outcome;
  Status status = allocate(plan);
  if (status.ok()) status = sweep(plan, stop, outcome);
  // Whatever ended the sweep, the reports learn how it ended and keep the finished rows.
  if (!status.ok()) {
    const report::RunStatus how = status.code() == ErrorCode::kInterrupted ? report::RunStatus::kInterrupted
                                                                           : status_after(status);
    (void)finish(outcome, how, status.code() == ErrorCode::kInterrupted ? ok_status() : status);
    return status;
  }
  COLLBENCH_RETURN_IF_ERROR(finish(outcome, report::RunStatus::kOk, ok_status()));
  return outcome;
}

}  // namespace collbench::engine
