#include "bench/cli/commands/health_command.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>

#include "bench/cli/commands/health_topology.hpp"
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
#include "bench/engine/health.hpp"
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
#include "report/live/expect_reporter.hpp"
#include "report/live/table_reporter.hpp"
#include "report/render/health_text.hpp"
#include "report/render/prometheus_text.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

// Rank 0's verdict on every rank: the same exit code everywhere, printed once.
Status agree_verdict(bootstrap::Bootstrap& boot, const Status& verdict) {
  std::string shared = verdict.ok() ? "" : std::to_string(static_cast<int>(verdict.code())) + ":" + verdict.message();
  COLLBENCH_ASSIGN_OR_RETURN(shared, bootstrap::broadcast_string(boot, shared));
  if (shared.empty()) return ok_status();
  const auto colon = shared.find(':');
  return Status::error(static_cast<ErrorCode>(std::stoi(shared.substr(0, colon))), shared.substr(colon + 1));
}

// One rank's health check: the engine takes the steps (engine::HealthRun); this wires what
// it asks for (the topologies, the run's context and table) and, on rank 0, turns what it
// measured into the verdict, the lines, the JSON and the metrics.
class HealthRank final : public engine::HealthHost {
 public:
  HealthRank(const HealthCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals, Session& s)
      : cmd_(cmd), argv_(argv), signals_(signals), s_(s),
        b_(s.boot()), options_{cmd.run.run, cmd.budget_s, cmd.run.topology},
        run_(options_, b_, s.backend(), s.watchdog(), *this) {}

  // An error of a step, or (verdict() true) the health verdict that rank 0 shared.
  Status run() {
    COLLBENCH_ASSIGN_OR_RETURN(const Agreed agreed, agree());
    Status done = check(agreed);
    // A check that could not finish is no pass: the metrics say so rather than keep the last one's.
    if (!verdict_ && b_.rank() == 0 && !agreed.metrics_path.empty()) {
      report::HealthReport failed;
      failed.hosts.push_back({s_.host(), {b_.rank()}, {{run_.step(), done.code(), done.message()}}});
      (void)report::write_file_atomically(agreed.metrics_path,
                                          report::health_prometheus_text(failed, utc_now_iso8601()));
    }
    return done;
  }

  bool verdict() const { return verdict_; }

  Result<report::TopologyCheck> check_topology() override {
    std::vector<std::string> failures;
    COLLBENCH_ASSIGN_OR_RETURN(hosts_, gather_host_topologies(b_, s_.host(), failures));
    if (b_.rank() != 0) return report::TopologyCheck{};
    return check_topologies(hosts_, failures, reference_, cmd_.topo_reference);
  }

  Result<report::RunContext> sweep_context(const engine::SweepPlan& plan) override {
    backend::DeviceInfo device = s_.backend().device();
    if (device.device == "cpu") device.name = "CPUs " + topo::allowed_cpus();
    COLLBENCH_ASSIGN_OR_RETURN(auto ranks, engine::gather_rank_table(b_, device, s_.host()));
    COLLBENCH_ASSIGN_OR_RETURN(report::RunContext context,
                               make_run_context(cmd_.run, argv_, b_, s_.backend(), std::move(ranks), plan));
    COLLBENCH_ASSIGN_OR_RETURN(context.expected_busbw, agree_expected_busbw(b_, context, hosts_));
    COLLBENCH_RETURN_IF_ERROR(report::apply_busbw_bound(bounds_, context.expected_busbw));
    return context;
  }

  report::Reporter& sweep_reporter() override {
    if (b_.rank() != 0) return quiet_;
    live_ = std::make_unique<LiveTable>(expectations_);
    s_.guard(&live_->guarded);
    return live_->guarded;
  }

  void sweep_ended(bool ok) override {
    s_.guard(nullptr);
    if (!ok) s_.stop_communicators();
  }

 private:
  // What every rank agrees on before anything runs; a bad flag or file is one usage error.
  struct Agreed {
    std::string path;
    std::string metrics_path;
    engine::SweepPlan plan;
  };

  // Rank 0's table of the sweep, with --expect's lines; guarded for the watchdog.
  struct LiveTable {
    explicit LiveTable(const std::vector<report::Expectation>& expectations) : expected(tee, expectations) {
      tee.add(std::make_unique<report::TableReporter>(std::cout));
    }
    report::TeeReporter tee;
    report::ExpectReporter expected;
    report::GuardedReporter guarded{expected};
  };

  Result<Agreed> agree() {
    Agreed a;
    COLLBENCH_ASSIGN_OR_RETURN(expectations_,
                               agree_expectations(b_, cmd_.run.expect_file, s_.backend().device().name, s_.host()));
    bounds_ = expectations_;
    COLLBENCH_ASSIGN_OR_RETURN(reference_, agree_reference(b_, cmd_.topo_reference));
    COLLBENCH_ASSIGN_OR_RETURN(a.path, agree_output_path(b_, cmd_.run.output_file, cmd_.run.force));
    COLLBENCH_ASSIGN_OR_RETURN(a.metrics_path, agree_metrics_path(b_, cmd_.run.metrics_file));
    COLLBENCH_ASSIGN_OR_RETURN(a.plan, run_.plan());  // the sweep's flags are checked here too
    return a;
  }

  // The engine's steps, then rank 0's verdict on every rank.
  Status check(const Agreed& a) {
    report::HealthReport health;
    fill_job_header(health.job, s_, argv_);
    health.job.start_time = utc_now_iso8601();
    COLLBENCH_ASSIGN_OR_RETURN(const engine::HealthMeasurements m,
                               run_.run(a.plan, preflight_inputs(s_), signals_.token()));
    verdict_ = true;
    if (b_.rank() != 0) return agree_verdict(b_, ok_status());
    report::HealthInputs in;
    in.preflight = &m.preflight;
    in.topology = m.topology;
    if (m.sweep) {
      in.rows = &m.sweep->outcome.rows;
      in.expectations = report::check_expectations(m.sweep->outcome.rows, bounds_);
      health.avg_busbw_gbps = m.sweep->outcome.summary.avg_busbw_gbps;
    } else {
      health.sweep_not_run_why = "the preflight failed";
    }
    report::assess_health(in, health);
    health.job.hosts.clear();
    for (const auto& h : health.hosts) health.job.hosts.push_back(h.host);
    return agree_verdict(b_, publish(health, m.sweep ? &*m.sweep : nullptr, in.expectations, a));
  }

  // Rank 0: the lines, the JSON, the metrics; the verdict, or an error writing them.
  Status publish(const report::HealthReport& health, const engine::HealthSweep* swept,
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

  const HealthCommand& cmd_;
  const std::vector<std::string>& argv_;
  SignalStop& signals_;
  Session& s_;
  bootstrap::Bootstrap& b_;
  const engine::HealthOptions options_;
  engine::HealthRun run_;
  engine::NullReporter quiet_;
  std::vector<report::Expectation> expectations_;  // as --expect gives them, for the live lines
  std::vector<report::Expectation> bounds_;        // with the shares of the expected busbw resolved
  std::optional<topo::Topology> reference_;        // rank 0: --topo-reference's model
  std::vector<HostTopology> hosts_;                // rank 0: every host's topology, when discovered
  std::unique_ptr<LiveTable> live_;
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
