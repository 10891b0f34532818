// SIGINT/SIGTERM become a stop request that the sweep honours between rows, so finished
// results are written; a second signal ends the process at once.
#pragma once

#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>

namespace collbench::cli {

class SignalStop {
 public:
  // Blocks SIGINT and SIGTERM in this thread (and in every thread created after it, MPI's
  // included) and waits for them on a thread of its own.
  SignalStop();
  ~SignalStop();
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;

  std::stop_token token() const { return source_.get_token(); }

  // Runs `action` on the signal thread at the first signal, before the sweep reaches a row
  // boundary: launchers (mpirun, srun) may follow SIGTERM with SIGKILL within a second, so
  // the finished results are saved at once. Unsubscribe before what `action` uses dies.
  void subscribe(std::function<void()> action);
  void unsubscribe() { subscribe(nullptr); }

 private:
  std::stop_source source_;
  std::mutex mutex_;
  std::function<void()> on_signal_;
  std::jthread waiter_;  // last: started after everything it uses
};

}  // namespace collbench::cli
