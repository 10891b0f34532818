#include "bench/cli/run_command.hpp"

#include <unistd.h>

#include <iostream>

#include "bench/cli/launch_env.hpp"
#include "bench/cli/wiring.hpp"
#include "bench/engine/rank_table.hpp"
#include "bench/engine/runner.hpp"
#include "collbench_build_info.hpp"
#include "common/file_io.hpp"
#include "report/atomic_file.hpp"
#include "report/json_reporter.hpp"
#include "report/progress_reporter.hpp"
#include "report/table_reporter.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

report::RunConfig config_of(const engine::RunOptions& o, double timeout_s) {
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
  c.warmup_iterations = o.warmup_iterations;
  c.check_iterations = o.check_iterations;
  c.average = static_cast<int>(o.average);
  c.blocking = o.blocking;
  c.run_cycles = o.run_cycles;
  c.timeout_s = timeout_s;
  c.seed = o.seed;
  return c;
}

// Rank 0 decides where the JSON goes; every rank learns the decision, so a bad path stops
// the whole job with a usage error before anything runs.
Result<std::string> agree_output_path(bootstrap::Bootstrap& boot, const RunCommand& cmd) {
  if (cmd.output_file.empty()) return std::string();
  std::string decision;
  if (boot.rank() == 0) {
    auto path = report::choose_output_path(cmd.output_file, cmd.force);
    Status writable = path.ok() ? report::check_writable(*path) : path.status();
    decision = writable.ok() ? "ok:" + *path : "error:" + writable.message();
  }
  COLLBENCH_ASSIGN_OR_RETURN(decision, bootstrap::broadcast_string(boot, decision));
  if (decision.rfind("ok:", 0) == 0) return decision.substr(3);
  return Status::error(ErrorCode::kUsage, "-J/--output_file " + cmd.output_file + ": " + decision.substr(6));
}

report::RunContext make_context(const RunCommand& cmd, const std::vector<std::string>& argv,
                                const bootstrap::Bootstrap& boot, const backend::Backend& backend,
                                std::vector<report::RankInfo> ranks) {
  report::RunContext ctx;
  ctx.tool_version = COLLBENCH_VERSION;
  ctx.git_commit = COLLBENCH_GIT_COMMIT;
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
  ctx.config = config_of(cmd.run, cmd.timeout_s);
  return ctx;
}

Status check_outcome(const engine::RunOutcome& outcome) {
  if (outcome.summary.total_wrong == 0) return ok_status();
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

}  // namespace

CommandResult run_command(const RunCommand& cmd, const std::vector<std::string>& argv, std::stop_token stop) {
  CommandResult result;
  result.host = topo::host_name();
  const LaunchEnv env = read_launch_env();
  result.rank = env.likely_rank();
  Wiring wiring;
  auto boot = wiring.make_bootstrap(cmd.bootstrap, env);
  if (!boot.ok()) return {boot.status(), result.rank, result.host, true};
  bootstrap::Bootstrap& b = **boot;
  result.rank = b.rank();

  std::string note;
  auto backend = wiring.make_backend(cmd.backend, b, note);
  if (!backend.ok()) return {backend.status(), result.rank, result.host, true};

  engine::NullReporter quiet;
  report::TeeReporter reporters;
  engine::Runner runner(cmd.run, b, **backend, b.rank() == 0 ? static_cast<report::Reporter&>(reporters) : quiet);
  auto plan = runner.plan();
  if (!plan.ok()) return {plan.status(), result.rank, result.host, b.rank() == 0};
  auto path = agree_output_path(b, cmd);
  if (!path.ok()) return {path.status(), result.rank, result.host, b.rank() == 0};

  auto ranks = engine::gather_rank_table(b, (*backend)->device(), result.host);
  if (!ranks.ok()) return {ranks.status(), result.rank, result.host, true};
  const report::RunContext ctx = make_context(cmd, argv, b, **backend, std::move(*ranks));

  if (b.rank() == 0) {
    if (!note.empty()) std::cout << "# " << note << "\n";
    // The progress line goes first: it clears itself before a row reaches a shared terminal.
    if (cmd.progress && isatty(STDERR_FILENO)) reporters.add(std::make_unique<report::ProgressReporter>(std::cerr));
    reporters.add(std::make_unique<report::TableReporter>(std::cout));
    if (!path->empty()) reporters.add(std::make_unique<report::JsonFileReporter>(*path));
  }
  auto outcome = runner.run(*plan, ctx, stop);
  if (!outcome.ok()) return {outcome.status(), result.rank, result.host, true};
  if (b.rank() == 0 && !path->empty()) std::cout << "# JSON result written to " << *path << "\n";
  return {check_outcome(*outcome), result.rank, result.host, b.rank() == 0};
}

}  // namespace collbench::cli
