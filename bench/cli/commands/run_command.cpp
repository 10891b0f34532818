#include "bench/cli/commands/run_command.hpp"

#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <thread>

#include "bench/cli/wiring/error_line.hpp"
#include "bench/cli/wiring/expect_file.hpp"
#include "bench/cli/wiring/expected_busbw.hpp"
#include "bench/cli/wiring/host_topology.hpp"
#include "bench/cli/wiring/launch_env.hpp"
#include "bench/cli/wiring/output_path.hpp"
#include "bench/cli/wiring/rank_threads.hpp"
#include "bench/cli/wiring/run_context.hpp"
#include "bench/cli/wiring/session.hpp"
#include "bench/cli/wiring/signals.hpp"
#include "bench/cli/wiring/version.hpp"
#include "bench/engine/rank_table.hpp"
#include "bench/engine/runner.hpp"
#include "common/file_io.hpp"
#include "report/analysis/expectations.hpp"
#include "report/format/number_format.hpp"
#include "report/live/anomaly_reporter.hpp"
#include "report/live/expect_reporter.hpp"
#include "report/live/json_reporter.hpp"
#include "report/live/metrics_reporter.hpp"
#include "report/live/nccl_tests_json_reporter.hpp"
#include "report/live/progress_reporter.hpp"
#include "report/live/table_reporter.hpp"
#include "topo/binding.hpp"
#include "topo/compare.hpp"
#include "topo/discover.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

// --bind: this rank's CPUs, chosen from its host's topology, before buffers exist.
Result<std::string> bind_rank(const backend::DeviceInfo& device, int local_rank, const std::string& host) {
  COLLBENCH_ASSIGN_OR_RETURN(const topo::Topology t, discover_this_host(host));
  COLLBENCH_ASSIGN_OR_RETURN(const topo::BindingChoice choice, topo::choose_binding(t, device.pci_bus_id, local_rank));
  COLLBENCH_RETURN_IF_ERROR(topo::bind_to(choice.cpus));
  return choice.reason;
}

// Each host's topology into the context; on rank 0 a note when hosts differ.
Result<std::vector<HostTopology>> record_topologies(bootstrap::Bootstrap& boot, const std::string& host,
                                                    report::RunContext& ctx, std::vector<std::string>& notes) {
  std::vector<std::string> failures;
  COLLBENCH_ASSIGN_OR_RETURN(auto hosts, gather_host_topologies(boot, host, failures));
  for (const auto& f : failures) notes.push_back("topology discovery failed on " + f);
  std::vector<topo::Topology> models;
  for (const auto& h : hosts) {
    ctx.topologies.emplace_back(h.host, h.json);
    models.push_back(h.model);
  }
  if (models.size() > 1) {
    const topo::Comparison c = topo::compare_hosts(models);
    if (!c.all_identical()) notes.push_back("hosts differ: " + topo::format_comparison(c, models));
  }
  return hosts;
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
  return Status::error(ErrorCode::kWrongData, std::to_string(outcome.summary.total_wrong) + " wrong elements" + first);
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
  auto expectations = agree_expectations(b, cmd.expect_file, s.backend().device().name, result.host);
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
  auto nccl_tests_path = agree_nccl_tests_json_path(b, cmd.nccl_tests_json_file, cmd.force,
                                                    cmd.drop_in ? "-J/--output_file" : "--nccl-tests-json");
  if (!nccl_tests_path.ok()) return result.with(nccl_tests_path.status(), b.rank() == 0);

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
  auto made = make_run_context(cmd, argv, b, s.backend(), std::move(*ranks), *plan);
  if (!made.ok()) return result.with(made.status(), true);
  report::RunContext ctx = std::move(made).value();
  std::vector<HostTopology> hosts;
  if (cmd.topology) {
    auto recorded = record_topologies(b, result.host, ctx, notes);
    if (!recorded.ok()) return result.with(recorded.status(), true);
    hosts = std::move(*recorded);
  }
  auto bound = agree_expected_busbw(b, ctx, hosts);
  if (!bound.ok()) return result.with(bound.status(), true);
  ctx.expected_busbw = *bound;
  // Every rank has the bound: a share of it that cannot be taken is the same usage error on all.
  if (Status applied = report::apply_busbw_bound(*expectations, ctx.expected_busbw); !applied.ok()) {
    return result.with(applied, b.rank() == 0);
  }

  if (b.rank() == 0) {
    for (const auto& w : cmd.warnings) std::cerr << "collbench: warning: " << w << std::endl;
    for (const auto& note : notes) std::cout << "# " << note << "\n";
    // nccl-tests' own line, before its table as upstream prints it.
    if (!nccl_tests_path->empty()) std::cout << "# Writing JSON output to " << *nccl_tests_path << "\n";
    // The progress line goes first: it clears itself before a row reaches a shared terminal.
    if (cmd.progress && isatty(STDERR_FILENO)) reporters.add(std::make_unique<report::ProgressReporter>(std::cerr));
    reporters.add(std::make_unique<report::TableReporter>(std::cout));
    if (!path->empty()) reporters.add(std::make_unique<report::JsonFileReporter>(*path));
    if (!metrics_path->empty()) reporters.add(std::make_unique<report::MetricsFileReporter>(*metrics_path));
    if (!nccl_tests_path->empty()) {
      reporters.add(std::make_unique<report::NcclTestsJsonReporter>(*nccl_tests_path));
    }
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
  const Status verdict = check_outcome(*outcome, cmd.run.min_busbw_gbps, *expectations);
  return speak_then_leave(b, result.with(verdict, b.rank() == 0));
}

}  // namespace

CommandResult run_command(const RunCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals) {
  if (cmd.malloc_keep) keep_large_allocations();
  const SessionChoices choices{cmd.bootstrap, cmd.backend, cmd.timeout_s, cmd.stagger_ms, cmd.device};
  return run_ranks(choices, cmd.gpus_per_process, [&](Result<std::unique_ptr<Session>> session) {
    return run_rank(cmd, argv, signals, std::move(session));
  });
}

}  // namespace collbench::cli
