#include "bench/cli/health_command.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <optional>

#include "bench/cli/error_line.hpp"
#include "bench/cli/expect_file.hpp"
#include "bench/cli/expected_busbw.hpp"
#include "bench/cli/host_topology.hpp"
#include "bench/cli/launch_env.hpp"
#include "bench/cli/output_path.hpp"
#include "bench/cli/preflight_command.hpp"
#include "bench/cli/rank_threads.hpp"
#include "bench/cli/run_context.hpp"
#include "bench/cli/session.hpp"
#include "bench/cli/signals.hpp"
#include "bench/engine/preflight.hpp"
#include "bench/engine/rank_table.hpp"
#include "bench/engine/runner.hpp"
#include "common/file_io.hpp"
#include "common/strings.hpp"
#include "common/units.hpp"
#include "report/analysis/expectations.hpp"
#include "report/analysis/health.hpp"
#include "report/documents/atomic_file.hpp"
#include "report/documents/health_json.hpp"
#include "report/format/number_format.hpp"
#include "report/live/expect_reporter.hpp"
#include "report/live/table_reporter.hpp"
#include "report/render/health_text.hpp"
#include "report/render/prometheus_text.hpp"
#include "topo/compare.hpp"
#include "topo/discover.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

// The sweep may use at most this share of --budget, leaving the rest to the start-up, the
// preflight, the topology exchange and the checks.
constexpr double kSweepShareOfBudget = 0.5;

// --topo-reference, read on rank 0 (it need exist there only); every rank agrees on whether it
// is usable, so that a bad file is one usage error (exit 2) before anything runs.
Result<std::optional<topo::Topology>> agree_reference(bootstrap::Bootstrap& boot, const std::string& path) {
  if (path.empty()) return std::optional<topo::Topology>();
  std::optional<topo::Topology> reference;
  std::string verdict = "ok";
  if (boot.rank() == 0) {
    auto loaded = topo::load_topology_file(path);
    if (loaded.ok()) {
      reference = std::move(*loaded);
    } else {
      verdict = loaded.status().message();
    }
  }
  COLLBENCH_ASSIGN_OR_RETURN(verdict, bootstrap::broadcast_string(boot, verdict));
  if (verdict != "ok") return Status::error(ErrorCode::kUsage, "--topo-reference: " + verdict);
  return reference;
}

// Rank 0: each host against the reference file, or against the majority of the job's hosts.
report::TopologyCheck check_topologies(const std::vector<HostTopology>& hosts, const std::vector<std::string>& failures,
                                       const std::optional<topo::Topology>& reference, const std::string& reference_path) {
  report::TopologyCheck check;
  if (!failures.empty()) {
    check.not_checked_why = "discovery failed on " + join(failures, "; ");
    return check;
  }
  check.checked = true;
  if (reference) {
    check.reference = reference_path;
    for (const auto& h : hosts) {
      auto differences = topo::describe_differences(*reference, h.model);
      if (!differences.empty()) check.differing.push_back({h.host, std::move(differences)});
    }
    return check;
  }
  if (hosts.size() < 2) {
    check.checked = false;
    check.not_checked_why = "one host and no --topo-reference FILE";
    return check;
  }
  std::vector<topo::Topology> models;
  models.reserve(hosts.size());
  for (const auto& h : hosts) models.push_back(h.model);
  const topo::Comparison c = topo::compare_hosts(models);
  const std::size_t largest = c.groups.front().hosts.size();
  if (2 * largest <= hosts.size()) {
    check.reference = "each other (no majority)";
    check.job_problem = "no majority among the job's " + std::to_string(hosts.size()) + " hosts: " +
                        topo::format_comparison(c, models) + " (give --topo-reference FILE)";
    return check;
  }
  check.reference = "the majority of the job's hosts (" + std::to_string(largest) + " of " +
                    std::to_string(hosts.size()) + ")";
  for (std::size_t g = 1; g < c.groups.size(); ++g) {
    for (const auto& host : c.groups[g].hosts) check.differing.push_back({host, c.groups[g].differences});
  }
  return check;
}

// Rank 0's verdict on every rank: the same exit code everywhere, printed once.
Status agree_verdict(bootstrap::Bootstrap& boot, const Status& verdict) {
  std::string shared = verdict.ok() ? "" : std::to_string(static_cast<int>(verdict.code())) + ":" + verdict.message();
  COLLBENCH_ASSIGN_OR_RETURN(shared, bootstrap::broadcast_string(boot, shared));
  if (shared.empty()) return ok_status();
  const auto colon = shared.find(':');
  return Status::error(static_cast<ErrorCode>(std::stoi(shared.substr(0, colon))), shared.substr(colon + 1));
}

// What one rank does; rank 0 prints and writes.
class HealthRank {
 public:
  HealthRank(const HealthCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals, Session& s)
      : cmd_(cmd), argv_(argv), signals_(signals), s_(s), b_(s.boot()) {}

  // An error of a step, or (verdict() true) the health verdict that rank 0 shared.
  Status run() {
    COLLBENCH_ASSIGN_OR_RETURN(const Agreed agreed, agree());
    Status done = check(agreed);
    // A check that could not finish is no pass: the metrics say so rather than keep the last one's.
    if (!verdict_ && b_.rank() == 0 && !agreed.metrics_path.empty()) {
      report::HealthReport failed;
      failed.hosts.push_back({s_.host(), {b_.rank()}, {{step_, done.code(), done.message()}}});
      (void)report::write_file_atomically(agreed.metrics_path,
                                          report::health_prometheus_text(failed, utc_now_iso8601()));
    }
    return done;
  }

  bool verdict() const { return verdict_; }

 private:
  // What every rank agrees on before anything runs; a bad flag or file is one usage error.
  struct Agreed {
    std::vector<report::Expectation> expectations;
    std::optional<topo::Topology> reference;  // rank 0 only
    std::string path;
    std::string metrics_path;
    engine::SweepPlan plan;
  };

  struct Sweep {
    report::RunContext context;
    engine::RunOutcome outcome;
    std::vector<report::Expectation> expectations;  // with the shares of the bound resolved
  };

  Result<Agreed> agree() {
    Agreed a;
    COLLBENCH_ASSIGN_OR_RETURN(a.expectations,
                               agree_expectations(b_, cmd_.run.expect_file, s_.backend().device().name, s_.host()));
    COLLBENCH_ASSIGN_OR_RETURN(a.reference, agree_reference(b_, cmd_.topo_reference));
    COLLBENCH_ASSIGN_OR_RETURN(a.path, agree_output_path(b_, cmd_.run.output_file, cmd_.run.force));
    COLLBENCH_ASSIGN_OR_RETURN(a.metrics_path, agree_metrics_path(b_, cmd_.run.metrics_file));
    // The sweep's flags are checked here too; planning reports nothing.
    COLLBENCH_ASSIGN_OR_RETURN(a.plan, engine::Runner(cmd_.run.run, b_, s_.backend(), quiet_, s_.watchdog()).plan());
    COLLBENCH_RETURN_IF_ERROR(check_budget(a.plan));
    return a;
  }

  // The steps in order; the sweep only after a clean preflight.
  Status check(const Agreed& a) {
    report::HealthReport health;
    fill_job_header(health.job, s_, argv_);
    health.job.start_time = utc_now_iso8601();
    step_ = report::HealthCheck::kPreflight;
    COLLBENCH_ASSIGN_OR_RETURN(const report::PreflightReport preflight, run_preflight());
    report::HealthInputs in;
    in.preflight = &preflight;
    step_ = report::HealthCheck::kTopology;
    COLLBENCH_ASSIGN_OR_RETURN(in.topology, topology(a.reference));
    COLLBENCH_ASSIGN_OR_RETURN(const bool go, agree_go(preflight));
    std::optional<Sweep> swept;
    if (go) {
      step_ = report::HealthCheck::kData;
      COLLBENCH_ASSIGN_OR_RETURN(swept, sweep(a.plan, a.expectations));
      in.rows = &swept->outcome.rows;
      in.expectations = report::check_expectations(swept->outcome.rows, swept->expectations);
      health.avg_busbw_gbps = swept->outcome.summary.avg_busbw_gbps;
    } else {
      health.sweep_not_run_why = "the preflight failed";
    }
    verdict_ = true;
    if (b_.rank() != 0) return agree_verdict(b_, ok_status());
    report::assess_health(in, health);
    health.job.hosts.clear();
    for (const auto& h : health.hosts) health.job.hosts.push_back(h.host);
    return agree_verdict(b_, publish(health, swept ? &*swept : nullptr, in.expectations, a));
  }

  // Rank 0: the lines, the JSON, the metrics; the verdict, or an error writing them.
  Status publish(const report::HealthReport& health, const Sweep* swept,
                 const std::vector<report::ExpectationResult>& expectations, const Agreed& a) const {
    std::cout << report::job_header_line(health.job, "health") << "\n";
    report::write_health_text(std::cout, health);
    if (!a.path.empty()) {
      COLLBENCH_RETURN_IF_ERROR(report::write_file_atomically(a.path, report::health_json_text(health)));
      std::cout << "# JSON report written to " << a.path << "\n";
    }
    if (!a.metrics_path.empty()) {
      std::string text;
      if (swept != nullptr) {
        report::RunSummary summary = swept->outcome.summary;
        summary.expectations = expectations;
        text = report::prometheus_text(report::RunDocument{swept->context, swept->outcome.rows, summary},
                                      "collbench_health_");
      }
      text += report::health_prometheus_text(health, utc_now_iso8601());
      COLLBENCH_RETURN_IF_ERROR(
          report::write_file_atomically(a.metrics_path, text).with_context("--metrics " + a.metrics_path));
      std::cout << "# Metrics written to " << a.metrics_path << "\n";
    }
    return report::health_status(health);
  }

  // The precision-driven sweep's longest time must fit in its share of the budget.
  Status check_budget(const engine::SweepPlan& plan) const {
    const engine::RunOptions& o = cmd_.run.run;
    if (o.iterations != 0 || o.run_cycles == 0) return ok_status();
    const double worst = static_cast<double>(plan.rows.size()) * 2 * o.precision.max_time_s *
                         static_cast<double>(o.run_cycles);
    if (worst <= kSweepShareOfBudget * cmd_.budget_s) return ok_status();
    return Status::error(ErrorCode::kUsage,
                         "--budget " + report::format_shortest(cmd_.budget_s) + ": the sweep may take up to " +
                             report::format_shortest(worst) + " s (" + std::to_string(plan.rows.size()) +
                             " rows x 2 placements x --max-time " + report::format_shortest(o.precision.max_time_s) +
                             " s), more than half of it; raise --budget, or lower --max-time or the sizes");
  }

  Result<report::PreflightReport> run_preflight() {
    engine::WatchedStep step(s_.watchdog(), "health: preflight (rank table exchange and all_reduce)", 4);
    return engine::run_preflight(b_, s_.backend(), preflight_inputs(s_));
  }

  Result<report::TopologyCheck> topology(const std::optional<topo::Topology>& reference) {
    if (!cmd_.run.topology) {
      report::TopologyCheck check;
      check.not_checked_why = "--no-topology";
      return check;
    }
    engine::WatchedStep step(s_.watchdog(), "health: topology exchange");
    std::vector<std::string> failures;
    COLLBENCH_ASSIGN_OR_RETURN(hosts_, gather_host_topologies(b_, s_.host(), failures));
    if (b_.rank() != 0) return report::TopologyCheck{};
    return check_topologies(hosts_, failures, reference, cmd_.topo_reference);
  }

  // Rank 0 alone knows the launch problems: it tells the others whether to sweep.
  Result<bool> agree_go(const report::PreflightReport& preflight) {
    const bool go = preflight.verdict == report::PreflightVerdict::kOk;
    COLLBENCH_ASSIGN_OR_RETURN(const std::string shared, bootstrap::broadcast_string(b_, go ? "go" : "stop"));
    return shared == "go";
  }

  // The checked sweep, with the run's table (and --expect's lines) on rank 0.
  Result<Sweep> sweep(const engine::SweepPlan& plan, const std::vector<report::Expectation>& expectations) {
    backend::DeviceInfo device = s_.backend().device();
    if (device.device == "cpu") device.name = "CPUs " + topo::allowed_cpus();
    COLLBENCH_ASSIGN_OR_RETURN(auto ranks, engine::gather_rank_table(b_, device, s_.host()));
    Sweep swept{make_run_context(cmd_.run, argv_, b_, s_.backend(), std::move(ranks), plan), {}, {}};
    COLLBENCH_ASSIGN_OR_RETURN(swept.context.expected_busbw, agree_expected_busbw(b_, swept.context, hosts_));
    swept.expectations = expectations;
    COLLBENCH_RETURN_IF_ERROR(report::apply_busbw_bound(swept.expectations, swept.context.expected_busbw));
    report::TeeReporter tee;
    report::ExpectReporter expected(tee, expectations);
    report::GuardedReporter guarded(expected);
    if (b_.rank() == 0) {
      tee.add(std::make_unique<report::TableReporter>(std::cout));
      s_.guard(&guarded);
    }
    engine::Runner runner(cmd_.run.run, b_, s_.backend(),
                          b_.rank() == 0 ? static_cast<report::Reporter&>(guarded) : quiet_, s_.watchdog());
    auto outcome = runner.run(plan, swept.context, signals_.token());
    s_.guard(nullptr);
    if (!outcome.ok()) {
      s_.stop_communicators();
      return outcome.status();
    }
    swept.outcome = std::move(*outcome);
    return swept;
  }

  const HealthCommand& cmd_;
  const std::vector<std::string>& argv_;
  SignalStop& signals_;
  Session& s_;
  bootstrap::Bootstrap& b_;
  engine::NullReporter quiet_;
  std::vector<HostTopology> hosts_;  // rank 0: every host's topology, when discovered
  report::HealthCheck step_ = report::HealthCheck::kPreflight;  // the step running, for a failure's metrics
  bool verdict_ = false;
};

CommandResult health_rank(const HealthCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals,
                          Result<std::unique_ptr<Session>> session) {
  CommandResult result = CommandResult::from_launcher(topo::host_name());
  if (!session.ok()) return result.with(session.status(), speaks_after_failed_open(session.status()));
  Session& s = **session;
  result.rank = s.boot().rank();
  result.nranks = s.boot().size();
  HealthRank rank(cmd, argv, signals, s);
  Status outcome = rank.run();
  // A step's error is printed by the rank that met it; the verdict once, by rank 0, before any
  // rank leaves.
  if (!rank.verdict()) return result.with(std::move(outcome), true);
  return speak_then_leave(s.boot(), result.with(std::move(outcome), s.boot().rank() == 0));
}

}  // namespace

RawHealthFlags health_defaults() {
  RawHealthFlags raw;
  raw.run.min_bytes = "1M";
  raw.run.max_bytes = "64M";
  raw.run.step_factor = "8";
  return raw;
}

void add_health_flags(CLI::App& app, RawHealthFlags& raw) {
  add_run_flags(app, raw.run);
  app.get_option("--output_file")->description("Write the health report (collbench.health JSON) here");
  app.add_option("--budget", raw.budget,
                 "Seconds any step may take (-T unless given); the sweep must fit in half of it")
      ->capture_default_str()
      ->type_name("SECONDS");
  app.add_option("--topo-reference", raw.topo_reference,
                 "A topology every host must match (any file topo -i reads); default: the majority of the job's hosts")
      ->type_name("FILE");
}

Result<HealthCommand> resolve_health_flags(const RawHealthFlags& raw) {
  HealthCommand cmd;
  COLLBENCH_ASSIGN_OR_RETURN(cmd.run, resolve_run_flags(raw.run));
  auto budget = parse_double(raw.budget);
  if (!budget.ok() || !(*budget >= 1)) {
    return Status::error(ErrorCode::kUsage, "--budget: '" + raw.budget + "' is not a number of seconds of at least 1");
  }
  cmd.budget_s = *budget;
  if (cmd.run.timeout_s == 0) cmd.run.timeout_s = cmd.budget_s;
  cmd.topo_reference = raw.topo_reference;
  return cmd;
}

CommandResult health_command(const HealthCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals) {
  const RunCommand& run = cmd.run;
  const SessionChoices choices{run.bootstrap, run.backend, run.timeout_s, run.stagger_ms, run.device};
  return run_ranks(choices, run.gpus_per_process, [&](Result<std::unique_ptr<Session>> session) {
    return health_rank(cmd, argv, signals, std::move(session));
  });
}

}  // namespace collbench::cli
