#include "bench/cli/wiring/session.hpp"

#include <chrono>
#include <iostream>
#include <thread>

#include "bench/cli/wiring/version.hpp"
#include "common/exit_code.hpp"
#include "common/file_io.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string waiting_for(const std::vector<int>& ranks) {
  if (ranks.empty()) return "";
  std::string text = " (still waiting for rank";
  text += ranks.size() == 1 ? " " : "s ";
  for (std::size_t i = 0; i < ranks.size() && i < 16; ++i) text += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > 16) text += ", ... (" + std::to_string(ranks.size()) + " in all)";
  return text + ")";
}

}  // namespace

Result<std::unique_ptr<Session>> Session::open(const SessionChoices& choices) {
  std::unique_ptr<Session> s(new Session());
  s->env_ = read_launch_env();
  s->host_ = topo::host_name();
  s->wiring_->set_rendezvous(choices.timeout_s > 0 ? choices.timeout_s : kDefaultRendezvousTimeoutS,
                             choices.stagger_ms);
  auto start = std::chrono::steady_clock::now();
  COLLBENCH_ASSIGN_OR_RETURN(s->boot_, s->wiring_->make_bootstrap(choices.bootstrap, s->env_));
  s->bootstrap_ms_ = ms_since(start);
  COLLBENCH_RETURN_IF_ERROR(s->start_backend(choices));
  return s;
}

Status Session::start_backend(const SessionChoices& choices) {
  watchdog_ = std::make_unique<engine::Watchdog>(
      choices.timeout_s, kWatchdogGraceS, [this](const std::string& step, double limit) { on_timeout(step, limit); });
  const auto start = std::chrono::steady_clock::now();
  {
    engine::WatchedStep step(watchdog_.get(), "creating the communicator of the collective backend");
    COLLBENCH_ASSIGN_OR_RETURN(backend_, wiring_->make_backend(choices.backend, *boot_, choices.device, note_));
  }
  communicator_ms_ = ms_since(start);
  return ok_status();
}

Result<std::unique_ptr<ThreadedSessions>> ThreadedSessions::open(const SessionChoices& choices, int threads) {
  std::unique_ptr<ThreadedSessions> t(new ThreadedSessions());
  t->choices_ = choices;
  t->env_ = read_launch_env();
  t->host_ = topo::host_name();
  t->wiring_.set_rendezvous(choices.timeout_s > 0 ? choices.timeout_s : kDefaultRendezvousTimeoutS, choices.stagger_ms);
  const auto start = std::chrono::steady_clock::now();
  COLLBENCH_ASSIGN_OR_RETURN(t->process_, t->wiring_.make_bootstrap(choices.bootstrap, t->env_));
  t->bootstrap_ms_ = ms_since(start);
  t->group_ = std::make_unique<bootstrap::ThreadGroup>(*t->process_, threads);
  return t;
}

Result<std::unique_ptr<Session>> ThreadedSessions::open_member(int thread) {
  std::unique_ptr<Session> s(new Session());
  // One process: its threads share the runtimes and the emergency stops of every communicator.
  s->wiring_ = std::make_unique<Wiring>(wiring_.shared_process());
  s->env_ = env_;
  s->host_ = host_;
  s->boot_ = group_->member(thread);
  s->bootstrap_ms_ = bootstrap_ms_;
  COLLBENCH_RETURN_IF_ERROR(s->start_backend(choices_));
  return s;
}

// Runs on the watchdog's thread while the main thread is stuck: say where, save what was
// measured, and end every rank of the job with the timeout code.
void Session::on_timeout(const std::string& step, double limit_s) {
  const std::uint64_t iteration = watchdog_->iteration();
  std::string message = "timeout: " + step + " did not finish within " + std::to_string(static_cast<long>(limit_s)) +
                        " s";
  if (step.find("timed loop") != std::string::npos) message += " (at iteration " + std::to_string(iteration) + ")";
  message += waiting_for(boot_->missing_ranks());
  std::cerr << "collbench: rank " << boot_->rank() << " on " << host_ << ": error: " << message << std::endl;
  // Every communicator of the process stops now, before the job is torn down: a library
  // waiting on a dead peer would otherwise hold the abort up (nccl-tests aborts likewise).
  wiring_->process().stop_all();
  if (report::GuardedReporter* guarded = guarded_.load(); guarded != nullptr) {
    (void)guarded->end_early(report::RunStatus::kTimeout, message, utc_now_iso8601());
  }
  // Every rank's watchdog fires at about the same time. The others give rank 0, which holds
  // the results, a moment to save them before the abort tears the job down.
  if (boot_->rank() != 0) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  boot_->abort(static_cast<int>(ExitCode::kTimeout));
}

bool speaks_after_failed_open(const Status& status) {
  const LaunchEnv env = read_launch_env();
  if (status.code() == ErrorCode::kLaunch && env.launched_by_mpi()) return env.likely_rank() == 0;
  return true;
}

void fill_job_header(report::JobHeader& job, Session& s, const std::vector<std::string>& argv) {
  job.tool_version = version();
  job.git_commit = git_commit();
  job.argv = argv;
  job.bootstrap = std::string(s.boot().name());
  const auto info = s.backend().info();
  job.backend = info.name;
  job.backend_library = info.library;
  job.memory = info.memory;
  job.nranks = s.boot().size();
}

engine::PreflightInputs preflight_inputs(Session& s) {
  engine::PreflightInputs in;
  in.host = s.host();
  in.bootstrap_ms = s.bootstrap_ms();
  in.communicator_ms = s.communicator_ms();
  in.launcher_world_size = launcher_world_size(s.env(), s.boot().size());
  in.visible_devices = s.backend().device().visible_devices;
  return in;
}

}  // namespace collbench::cli
