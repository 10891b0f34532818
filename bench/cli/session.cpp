#include "bench/cli/session.hpp"

#include <chrono>
#include <iostream>
#include <thread>

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
  s->wiring_.set_rendezvous(choices.timeout_s > 0 ? choices.timeout_s : kDefaultRendezvousTimeoutS, choices.stagger_ms);
  auto start = std::chrono::steady_clock::now();
  COLLBENCH_ASSIGN_OR_RETURN(s->boot_, s->wiring_.make_bootstrap(choices.bootstrap, s->env_));
  s->bootstrap_ms_ = ms_since(start);
  Session* raw = s.get();
  s->watchdog_ = std::make_unique<engine::Watchdog>(
      choices.timeout_s, [raw](const std::string& step, double limit) { raw->on_timeout(step, limit); });
  start = std::chrono::steady_clock::now();
  {
    engine::WatchedStep step(s->watchdog_.get(), "creating the communicator of the collective backend");
    COLLBENCH_ASSIGN_OR_RETURN(s->backend_, s->wiring_.make_backend(choices.backend, *s->boot_, s->note_));
  }
  s->communicator_ms_ = ms_since(start);
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
  if (guarded_ != nullptr) (void)guarded_->end_early(report::RunStatus::kTimeout, message, utc_now_iso8601());
  // Every rank's watchdog fires at about the same time. The others give rank 0, which holds
  // the results, a moment to save them before the abort tears the job down.
  if (boot_->rank() != 0) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  boot_->abort(static_cast<int>(ExitCode::kTimeout));
}

}  // namespace collbench::cli
