// SIGINT/SIGTERM become a stop request that the sweep honours between rows, so finished
// results are written; a second signal ends the process at once.
#pragma once

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

 private:
  std::stop_source source_;
  std::jthread waiter_;
};

}  // namespace collbench::cli
