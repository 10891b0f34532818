#include "bench/cli/commands/preflight_command.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

#include "bench/cli/wiring/adapter_registry.hpp"
#include "bench/cli/wiring/error_line.hpp"
#include "bench/cli/wiring/output_path.hpp"
#include "bench/cli/wiring/run_flags.hpp"
#include "bench/engine/preflight.hpp"
#include "common/file_io.hpp"
#include "report/documents/atomic_file.hpp"
#include "report/documents/preflight_json.hpp"
#include "report/render/preflight_text.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

Status verdict_status(const report::PreflightReport& rep) {
  switch (rep.verdict) {
    case report::PreflightVerdict::kOk: return ok_status();
    case report::PreflightVerdict::kWrongData: {
      std::string who;
      for (const auto& r : rep.ranks) {
        if (r.collective_ran && !r.value_ok) {
          who += (who.empty() ? "" : ", ") +
                 ("rank " + std::to_string(r.rank) + " on " + r.host + " got " + std::to_string(r.value));
        }
      }
      return Status::error(ErrorCode::kWrongData, "preflight: " + who + " instead of " + std::to_string(rep.expected));
    }
    case report::PreflightVerdict::kLaunchProblem:
      return Status::error(ErrorCode::kLaunch, "preflight: " + rep.problems.front().message);
  }
  return ok_status();
}

}  // namespace

void add_preflight_flags(CLI::App& app, RawPreflightFlags& raw) {
  app.add_option("--bootstrap", raw.bootstrap, bootstrap_flag_help())->capture_default_str();
  app.add_option("--backend", raw.backend, backend_flag_help())->capture_default_str();
  app.add_option("-T,--timeout", raw.timeout, "Seconds any step may take before every rank reports and exits")
      ->capture_default_str();
  app.add_option("-J,--output_file", raw.output_file,
                 "Write the report as JSON here (never overwritten without --force)");
  app.add_flag("--force", raw.force, "Overwrite an existing -J file");
  app.add_option("--fault", raw.fault, "TEST ONLY: corrupt-rank=R makes rank R receive a wrong value");
  app.add_option("--stagger-ms", raw.stagger_ms,
                 "Environment rendezvous: spread the ranks' connects over this many milliseconds (thousands of ranks)")
      ->capture_default_str();
}

Result<PreflightCommand> resolve_preflight_flags(const RawPreflightFlags& raw) {
  PreflightCommand cmd;
  COLLBENCH_RETURN_IF_ERROR(check_session_choices(raw.bootstrap, raw.backend));
  COLLBENCH_ASSIGN_OR_RETURN(cmd.session.timeout_s, parse_timeout(raw.timeout));
  cmd.session.bootstrap = raw.bootstrap;
  cmd.session.backend = raw.backend;
  COLLBENCH_ASSIGN_OR_RETURN(cmd.session.stagger_ms, parse_stagger(raw.stagger_ms));
  cmd.output_file = raw.output_file;
  cmd.force = raw.force;
  if (!raw.fault.empty()) {
    COLLBENCH_ASSIGN_OR_RETURN(auto fault, parse_fault(raw.fault));
    cmd.corrupt_rank = fault.corrupt_rank;
  }
  return cmd;
}

CommandResult preflight_command(const PreflightCommand& cmd, const std::vector<std::string>& argv) {
  CommandResult result = CommandResult::from_launcher(topo::host_name());
  auto session = Session::open(cmd.session);
  if (!session.ok()) return result.with(session.status(), speaks_after_failed_open(session.status()));
  Session& s = **session;
  result.rank = s.boot().rank();
  result.nranks = s.boot().size();
  auto path = agree_output_path(s.boot(), cmd.output_file, cmd.force);
  if (!path.ok()) return result.with(path.status(), s.boot().rank() == 0);

  engine::PreflightInputs in = preflight_inputs(s);
  in.corrupt_rank = cmd.corrupt_rank;
  engine::WatchedStep step(s.watchdog(), "preflight (rank table exchange and all_reduce)", 4);
  auto rep = engine::run_preflight(s.boot(), s.backend(), in);
  if (!rep.ok()) return result.with(rep.status(), true);
  if (s.boot().rank() != 0) return speak_then_leave(s.boot(), result.with(verdict_status(*rep), false));

  fill_job_header(rep->job, s, argv);
  rep->job.start_time = utc_now_iso8601();
  report::write_preflight_text(std::cout, *rep);
  if (!path->empty()) {
    Status written = report::write_file_atomically(*path, report::preflight_json_text(*rep));
    if (!written.ok()) return speak_then_leave(s.boot(), result.with(written, true));
    std::cout << "# JSON report written to " << *path << "\n";
  }
  return speak_then_leave(s.boot(), result.with(verdict_status(*rep), true));
}

}  // namespace collbench::cli
