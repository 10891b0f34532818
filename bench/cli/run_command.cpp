#include "bench/cli/run_command.hpp"

#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <thread>

#include "bench/cli/expect_file.hpp"
#include "bench/cli/launch_env.hpp"
#include "bench/cli/host_topology.hpp"
#include "bench/cli/output_path.hpp"
#include "bench/cli/session.hpp"
#include "bench/cli/signals.hpp"
#include "bench/cli/version.hpp"
#include "bench/engine/rank_table.hpp"
#include "bench/engine/runner.hpp"
#include "common/file_io.hpp"
#include "report/analysis/expectations.hpp"
#include "report/format/number_format.hpp"
#include "report/live/anomaly_reporter.hpp"
#include "report/live/expect_reporter.hpp"
#include "report/live/json_reporter.hpp"
#include "report/live/metrics_reporter.hpp"
#include "report/live/progress_reporter.hpp"
#include "report/live/table_reporter.hpp"
#include "topo/binding.hpp"
#include "topo/compare.hpp"
#include "topo/discover.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

report::RunConfig config_of(const engine::RunOptions& o, double timeout_s, bool malloc_keep) {
  report::RunConfig c;
  for (auto col : o.collectives) c.collectives.emplace_back(coll::to_string(col));
  for (auto t : o.types) c.dtypes.emplace_back(to_string(t));
  for (auto op : o.ops) c.ops.emplace_back(to_string(op));
  c.root = o.root;
  c.min_bytes = o.min_bytes;
  c.max_bytes = o.max_bytes;
  c.step_factor = o.step_factor;
  c.step_bytes = o.step_bytes;
  c.iterations = o.iterations;
  if (o.iterations == 0) {
    const auto& p = o.precision;
    c.precision = report::PrecisionConfig{p.min_time_s, p.max_time_s, p.target_spread, p.min_iterations, p.max_iterations};
  }
  c.warmup_iterations = o.warmup_iterations;
  c.check_iterations = o.check_iterations;
  c.average = static_cast<int>(o.average);
  c.blocking = o.blocking;
  c.run_cycles = o.run_cycles;
  c.timeout_s = timeout_s;
  c.seed = o.seed;
  c.malloc_keep = malloc_keep;
  c.aggregation = o.aggregation;
  c.graph_launches = o.graph_launches;
  c.per_iteration_timing = o.per_iteration_timing;
  c.report_timestamps = o.report_timestamps;
  return c;
}

// --bind: this rank's CPUs, chosen from its host's topology, before buffers exist.
Result<std::string> bind_rank(const backend::DeviceInfo& device, int local_rank, const std::string& host) {
  COLLBENCH_ASSIGN_OR_RETURN(const topo::Topology t, discover_this_host(host));
  COLLBENCH_ASSIGN_OR_RETURN(const topo::BindingChoice choice, topo::choose_binding(t, device.pci_bus_id, local_rank));
  COLLBENCH_RETURN_IF_ERROR(topo::bind_to(choice.cpus));
  return choice.reason;
}

// Each host's topology into the context; on rank 0 a note when hosts differ.
Status record_topologies(bootstrap::Bootstrap& boot, const std::string& host, report::RunContext& ctx,
                         std::vector<std::string>& notes) {
  std::vector<std::string> failures;
  COLLBENCH_ASSIGN_OR_RETURN(auto hosts, gather_host_topologies(boot, host, failures));
  for (const auto& f : failures) notes.push_back("topology discovery failed on " + f);
  std::vector<topo::Topology> models;
  for (auto& h : hosts) {
    ctx.topologies.emplace_back(h.host, h.json);
    models.push_back(std::move(h.model));
  }
  if (models.size() > 1) {
    const topo::Comparison c = topo::compare_hosts(models);
    if (!c.all_identical()) notes.push_back("hosts differ: " + topo::format_comparison(c, models));
  }
  return ok_status();
}

report::RunContext make_context(const RunCommand& cmd, const std::vector<std::string>& argv,
                                const bootstrap::Bootstrap& boot, const backend::Backend& backend,
                                std::vector<report::RankInfo> ranks) {
  report::RunContext ctx;
  ctx.tool_version = version();
  ctx.git_commit = git_commit();
  ctx.start_time = utc_now_iso8601();
  ctx.argv = argv;
  ctx.env = allow_listed_environment();
  ctx.bootstrap = std::string(boot.name());
  const auto info = backend.info();
  ctx.backend = info.name;
  ctx.backend_library = info.library;
  ctx.memory = info.memory;
  ctx.nranks = boot.size();
  ctx.hosts = engine::distinct_hosts(ranks);
  ctx.ranks = std::move(ranks);
  ctx.config = config_of(cmd.run, cmd.timeout_s, cmd.malloc_keep);
  ctx.config.gpus_per_process = cmd.gpus_per_process;
  ctx.config.buffer_registration = cmd.device.register_buffers;
  ctx.llc_bytes = topo::last_level_cache_bytes();
  return ctx;
}

// Wrong data first; then --expect (checked on every rank, so that all exit alike); then
// NCCL_TESTS_MIN_BW as nccl-tests applies it: the average busbw of every printed cell must
// reach 0.9 x the minimum.
Status check_outcome(const engine::RunOutcome& outcome, double min_busbw_gbps,
                     const std::vector<report::Expectation>& expectations) {
  if (outcome.summary.total_wrong == 0) {
    COLLBENCH_RETURN_IF_ERROR(report::expectations_met(report::check_expectations(outcome.rows, expectations)));
    const double avg = outcome.summary.avg_busbw_gbps;
    if (min_busbw_gbps > 0 && avg < 0.9 * min_busbw_gbps) {
      return Status::error(ErrorCode::kBelowExpectation, "average bus bandwidth " + report::format_shortest(avg) +
                                                             " GB/s is below 0.9 x NCCL_TESTS_MIN_BW " +
                                                             report::format_shortest(min_busbw_gbps) + " GB/s");
    }
    return ok_status();
  }
  std::string first;
  for (const auto& row : outcome.rows) {
    for (const auto& m : row.placements) {
      if (!m.mismatches.empty() && first.empty()) {
        const auto& x = m.mismatches.front();
        first = "; first at " + std::to_string(row.size_bytes) + " B " + report::to_string(m.placement) + ": rank " +
                std::to_string(x.rank) + " on " + x.host + ", element " + std::to_string(x.index);
      }
    }
  }
  return Status::error(ErrorCode::kWrongData,
                       std::to_string(outcome.summary.total_wrong) + " wrong elements" + first);
}

// Saves the rows finished so far the moment a signal arrives, and forgets that duty when
// the command ends.
class SaveOnSignal {
 public:
  SaveOnSignal(SignalStop& signals, report::GuardedReporter& guarded) : signals_(signals) {
    signals_.subscribe([&guarded] {
      (void)guarded.end_early(report::RunStatus::kInterrupted, "interrupted by a signal", utc_now_iso8601());
    });
  }
  ~SaveOnSignal() { signals_.unsubscribe(); }
  SaveOnSignal(const SaveOnSignal&) = delete;
  SaveOnSignal& operator=(const SaveOnSignal&) = delete;

 private:
  SignalStop& signals_;
};

// glibc maps allocations above a threshold (dynamic, at most 32 MiB) with mmap and unmaps them
// on free, so a library that allocates a message-sized temporary on every call pays page
// faults every call. A fixed, huge threshold and no trimming keep such memory in the heap.
void keep_large_allocations() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
}

// One rank's sweep, on whichever thread runs that rank.
CommandResult run_rank(const RunCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals,
                       Result<std::unique_ptr<Session>> session) {
  CommandResult result = CommandResult::from_launcher(topo::host_name());
  if (!session.ok()) return result.with(session.status(), speaks_after_failed_open(session.status()));
  Session& s = **session;
  bootstrap::Bootstrap& b = s.boot();
  result.rank = b.rank();
  result.nranks = b.size();
  // Before anything runs or is written: a bad expectations file is a usage error.
  auto expectations = agree_expectations(b, cmd.expect_file);
  if (!expectations.ok()) return result.with(expectations.status(), b.rank() == 0);

  engine::NullReporter quiet;
  report::TeeReporter reporters;
  report::ExpectReporter expected(reporters, *expectations);
  report::AnomalyReporter analysed(expected);
  report::GuardedReporter guarded(analysed);
  engine::Runner runner(cmd.run, b, s.backend(), b.rank() == 0 ? static_cast<report::Reporter&>(guarded) : quiet,
                        s.watchdog());
  auto plan = runner.plan();
  if (!plan.ok()) return result.with(plan.status(), b.rank() == 0);
  auto path = agree_output_path(b, cmd.output_file, cmd.force);
  if (!path.ok()) return result.with(path.status(), b.rank() == 0);
  auto metrics_path = agree_metrics_path(b, cmd.metrics_file);
  if (!metrics_path.ok()) return result.with(metrics_path.status(), b.rank() == 0);

  std::vector<std::string> notes = plan->notes;
  if (!s.note().empty()) notes.push_back(s.note());
  backend::DeviceInfo device = s.backend().device();
  if (cmd.bind) {
    auto bound = bind_rank(device, b.local_rank(), result.host);
    if (!bound.ok()) return result.with(bound.status(), true);
    if (b.rank() == 0) notes.push_back("--bind: rank 0 pinned to " + *bound);
  }
  if (device.device == "cpu") device.name = "CPUs " + topo::allowed_cpus();
  auto ranks = engine::gather_rank_table(b, device, result.host);
  if (!ranks.ok()) return result.with(ranks.status(), true);
  report::RunContext ctx = make_context(cmd, argv, b, s.backend(), std::move(*ranks));
  if (cmd.topology) {
    if (Status t = record_topologies(b, result.host, ctx, notes); !t.ok()) return result.with(t, true);
  }

  if (b.rank() == 0) {
    for (const auto& w : cmd.warnings) std::cerr << "collbench: warning: " << w << std::endl;
    for (const auto& note : notes) std::cout << "# " << note << "\n";
    // The progress line goes first: it clears itself before a row reaches a shared terminal.
    if (cmd.progress && isatty(STDERR_FILENO)) reporters.add(std::make_unique<report::ProgressReporter>(std::cerr));
    reporters.add(std::make_unique<report::TableReporter>(std::cout));
    if (!path->empty()) reporters.add(std::make_unique<report::JsonFileReporter>(*path));
    if (!metrics_path->empty()) reporters.add(std::make_unique<report::MetricsFileReporter>(*metrics_path));
    s.guard(&guarded);
  }
  std::optional<SaveOnSignal> save;
  if (b.rank() == 0) save.emplace(signals, guarded);  // the only rank with reports to save
  auto outcome = runner.run(*plan, ctx, signals.token());
  if (b.rank() == 0 && !path->empty()) std::cout << "# JSON result written to " << *path << "\n";
  if (b.rank() == 0 && !metrics_path->empty()) std::cout << "# Metrics written to " << *metrics_path << "\n";
  if (!outcome.ok()) {
    // Before anything is freed or destroyed, every communicator of this process stops: a
    // library still waiting on the failed exchange would otherwise never let go.
    s.stop_communicators();
    return result.with(outcome.status(), true);
  }
  return result.with(check_outcome(*outcome, cmd.run.min_busbw_gbps, *expectations), b.rank() == 0);
}

// The result this process reports for its ranks: the failure that came first (it woke the
// others), unless that one stays quiet and another rank has something to print.
CommandResult pick_result(const std::vector<CommandResult>& results, int first_failure) {
  if (first_failure < 0) return results.front();
  const CommandResult& root = results[static_cast<std::size_t>(first_failure)];
  if (root.printable) return root;
  for (const auto& r : results) {
    if (!r.status.ok() && r.printable) return r;
  }
  return root;
}

// -g N: N ranks on N threads; this thread runs rank 0 of the process (the only one that
// talks to the process-level bootstrap, as MPI may require).
CommandResult run_threads(ThreadedSessions& group,
                          const std::function<CommandResult(Result<std::unique_ptr<Session>>)>& body) {
  std::vector<CommandResult> results(static_cast<std::size_t>(group.threads()));
  std::atomic<int> first_failure{-1};
  const auto run_one = [&](int t) {
    CommandResult& r = results[static_cast<std::size_t>(t)];
    r = body(group.open_member(t));
    if (r.status.ok()) return;
    int none = -1;
    first_failure.compare_exchange_strong(none, t);
    // The other threads' ranks may wait in the library for this one: stop every communicator
    // of the process, then wake them from any bootstrap exchange.
    group.stop_communicators();
    group.abandon(r.status);
  };
  {
    std::vector<std::jthread> others;
    for (int t = 1; t < group.threads(); ++t) others.emplace_back(run_one, t);
    run_one(0);
  }
  return pick_result(results, first_failure.load());
}

}  // namespace

CommandResult CommandResult::from_launcher(const std::string& host) {
  const LaunchEnv env = read_launch_env();
  CommandResult r;
  r.rank = env.likely_rank();
  r.nranks = env.likely_size();
  r.host = host;
  return r;
}

CommandResult run_command(const RunCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals) {
  if (cmd.malloc_keep) keep_large_allocations();
  const SessionChoices choices{cmd.bootstrap, cmd.backend, cmd.timeout_s, cmd.stagger_ms, cmd.device};
  if (cmd.gpus_per_process == 1) return run_rank(cmd, argv, signals, Session::open(choices));
  auto group = ThreadedSessions::open(choices, cmd.gpus_per_process);
  if (!group.ok()) return CommandResult::from_launcher(topo::host_name()).with(group.status(), true);
  return run_threads(**group, [&](Result<std::unique_ptr<Session>> session) {
    return run_rank(cmd, argv, signals, std::move(session));
  });
}

}  // namespace collbench::cli
