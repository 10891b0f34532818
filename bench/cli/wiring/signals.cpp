#include "bench/cli/wiring/signals.hpp"

#include <pthread.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): sigwait and pthread_sigmask are POSIX, which <csignal> does not promise
#include <unistd.h>

#include <cstdlib>

#include "common/exit_code.hpp"

namespace collbench::cli {
namespace {

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGUSR2);  // used only to wake the waiter when the command ends
  return set;
}

}  // namespace

SignalStop::SignalStop() {
  const sigset_t set = stop_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  waiter_ = std::jthread([this, set](const std::stop_token& own) {
    int signal = 0;
    while (!own.stop_requested() && sigwait(&set, &signal) == 0) {
      if (signal == SIGUSR2) continue;
      if (source_.stop_requested()) {
        // A second interrupt: the user does not want to wait for the current row.
        static constexpr char kMsg[] = "collbench: interrupted again, exiting now\n";
        (void)!write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
        std::_Exit(static_cast<int>(ExitCode::kInterrupted));
      }
      source_.request_stop();
      std::lock_guard lock(mutex_);
      if (on_signal_) on_signal_();
    }
  });
}

void SignalStop::subscribe(std::function<void()> action) {
  std::lock_guard lock(mutex_);
  on_signal_ = std::move(action);
}

SignalStop::~SignalStop() {
  waiter_.request_stop();
  pthread_kill(waiter_.native_handle(), SIGUSR2);
}

}  // namespace collbench::cli
