// The parts every multi-rank command needs: the bootstrap, the backend, how long each took
// to start, and a watchdog that turns a hang into a diagnosis and a clean abort.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "bench/backend/backend.hpp"
#include "bench/backend/backend_entry.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/bootstrap/threads/threads_bootstrap.hpp"
#include "bench/cli/wiring/launch_env.hpp"
#include "bench/cli/wiring/wiring.hpp"
#include "bench/engine/preflight.hpp"
#include "bench/engine/watchdog.hpp"
#include "report/job_header.hpp"
#include "report/live/guarded_reporter.hpp"

namespace collbench::cli {

struct SessionChoices {
  std::string bootstrap = "auto";
  std::string backend = "auto";
  double timeout_s = 0;           // -T: any collective or barrier; also bounds the rendezvous
  std::uint32_t stagger_ms = 0;   // spread rendezvous connects over this many ms (huge jobs)
  backend::DeviceOptions device;  // -R, -x, -y, NCCL_TESTS_DEVICE
};

// The environment rendezvous waits -T seconds, or this long without -T.
inline constexpr double kDefaultRendezvousTimeoutS = 60;

// How long past a step's -T limit the watchdog waits before it aborts the job: the env
// bootstrap's other ranks give up one second after rank 0, when rank 0's verdict names the
// missing ranks and hosts; one second more lets that verdict arrive on a loaded host.
inline constexpr double kWatchdogGraceS = 2;

class ThreadedSessions;

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
  // Set and cleared by the rank's thread while the watchdog's thread may read it: atomic.
  void guard(report::GuardedReporter* reporter) { guarded_.store(reporter); }
  // Aborts every communicator of this process (all -g threads'), once.
  void stop_communicators() { wiring_->process().stop_all(); }

 private:
  friend class ThreadedSessions;
  Session() = default;
  Status start_backend(const SessionChoices& choices);
  void on_timeout(const std::string& step, double limit_s);

  LaunchEnv env_;
  std::string host_;
  std::unique_ptr<Wiring> wiring_ = std::make_unique<Wiring>();
  std::unique_ptr<bootstrap::Bootstrap> boot_;
  std::unique_ptr<backend::Backend> backend_;
  std::string note_;
  double bootstrap_ms_ = 0;
  double communicator_ms_ = 0;
  std::atomic<report::GuardedReporter*> guarded_{nullptr};
  std::unique_ptr<engine::Watchdog> watchdog_;  // last: its thread may use everything above
};

// Who prints a failure to form the job: every rank (each names its own problem), except a
// launch error under an MPI launcher, which every rank meets alike before any exchange (a
// process manager MPI cannot speak, a world of another size): rank 0's one line is enough.
bool speaks_after_failed_open(const Status& status);

// The job header of the preflight and locate documents: tool, bootstrap, backend, rank count.
// start_time and hosts are the caller's: they know when the job started and where ranks sit.
void fill_job_header(report::JobHeader& job, Session& s, const std::vector<std::string>& argv);

// What the preflight needs of an open session (preflight and health run it).
engine::PreflightInputs preflight_inputs(Session& s);

// -g N: this process's N ranks, one thread each, over one process-level bootstrap (so a job
// has processes x N ranks). Each rank gets a Session of its own, with its own backend (GPU).
class ThreadedSessions {
 public:
  static Result<std::unique_ptr<ThreadedSessions>> open(const SessionChoices& choices, int threads);

  int threads() const { return group_->threads(); }
  // The session of rank `thread` of this process. Call it on that rank's own thread (the
  // backend binds its GPU there); thread 0 must be the thread that called open().
  Result<std::unique_ptr<Session>> open_member(int thread);
  // A rank that failed on its own: wakes the others from any exchange (with `why`).
  void abandon(const Status& why) { group_->abandon(why); }
  // Aborts every communicator of this process, once.
  void stop_communicators() { wiring_.process().stop_all(); }

 private:
  ThreadedSessions() = default;

  SessionChoices choices_;
  LaunchEnv env_;
  std::string host_;
  Wiring wiring_;
  std::unique_ptr<bootstrap::Bootstrap> process_;
  std::unique_ptr<bootstrap::ThreadGroup> group_;
  double bootstrap_ms_ = 0;
};

}  // namespace collbench::cli
