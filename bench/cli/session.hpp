// The parts every multi-rank command needs: the bootstrap, the backend, how long each took
// to start, and a watchdog that turns a hang into a diagnosis and a clean abort.
#pragma once

#include <memory>
#include <string>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/cli/launch_env.hpp"
#include "bench/cli/wiring.hpp"
#include "bench/engine/watchdog.hpp"
#include "report/guarded_reporter.hpp"

namespace collbench::cli {

struct SessionChoices {
  std::string bootstrap = "auto";
  std::string backend = "auto";
  double timeout_s = 0;          // -T: any collective or barrier; also bounds the rendezvous
  std::uint32_t stagger_ms = 0;  // spread rendezvous connects over this many ms (huge jobs)
};

// The environment rendezvous waits -T seconds, or this long without -T.
inline constexpr double kDefaultRendezvousTimeoutS = 60;

class Session {
 public:
  static Result<std::unique_ptr<Session>> open(const SessionChoices& choices);

  bootstrap::Bootstrap& boot() { return *boot_; }
  backend::Backend& backend() { return *backend_; }
  const LaunchEnv& env() const { return env_; }
  const std::string& host() const { return host_; }
  const std::string& note() const { return note_; }
  double bootstrap_ms() const { return bootstrap_ms_; }
  double communicator_ms() const { return communicator_ms_; }
  engine::Watchdog* watchdog() { return watchdog_.get(); }
  // The reporter the watchdog finishes (marked "timeout") before it aborts the job.
  void guard(report::GuardedReporter* reporter) { guarded_ = reporter; }

 private:
  Session() = default;
  void on_timeout(const std::string& step, double limit_s);

  LaunchEnv env_;
  std::string host_;
  Wiring wiring_;
  std::unique_ptr<bootstrap::Bootstrap> boot_;
  std::unique_ptr<backend::Backend> backend_;
  std::string note_;
  double bootstrap_ms_ = 0;
  double communicator_ms_ = 0;
  report::GuardedReporter* guarded_ = nullptr;
  std::unique_ptr<engine::Watchdog> watchdog_;  // last: its thread may use everything above
};

}  // namespace collbench::cli
