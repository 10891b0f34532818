// Turns a hang into a diagnosis. The engine names each step (a warm-up, a timed loop, a
// check, an exchange) before it starts; a step still running after its deadline makes the
// watchdog call `on_expired` once, from its own thread, while the main thread is stuck.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace collbench::engine {

class Watchdog {
 public:
  using Expired = std::function<void(const std::string& step, double limit_s)>;

  // timeout_s is what one collective or barrier may take; 0 disables the watchdog. A step
  // fires grace_s after its limit: the layer underneath, where it bounds its own waits (the env
  // bootstrap: rank 0 after timeout_s, the others one second later, when they hear rank 0's
  // verdict), fails first with what only it knows, the ranks and hosts it is missing. The
  // watchdog is the last resort, for libraries that would wait forever.
  Watchdog(double timeout_s, double grace_s, Expired on_expired);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // A step of `operations` collectives: it may take operations x timeout. Replaces the
  // current step.
  void begin(std::string step, std::uint64_t operations = 1);
  void end();
  bool enabled() const { return timeout_s_ > 0; }
  // The iteration the current step has reached (cheap enough for the timed loop).
  void note_iteration(std::uint64_t i) { iteration_.store(i, std::memory_order_relaxed); }
  std::uint64_t iteration() const { return iteration_.load(std::memory_order_relaxed); }

 private:
  void watch(const std::stop_token& stop);

  double timeout_s_;
  double grace_s_;
  Expired on_expired_;
  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::string step_;
  double limit_s_ = 0;
  std::atomic<std::uint64_t> iteration_{0};
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  std::jthread thread_;  // last: started after everything it reads
};

// begin() now, end() when the scope closes.
class WatchedStep {
 public:
  WatchedStep(Watchdog* dog, std::string step, std::uint64_t operations = 1) : dog_(dog) {
    if (dog_ != nullptr) dog_->begin(std::move(step), operations);
  }
  ~WatchedStep() {
    if (dog_ != nullptr) dog_->end();
  }
  WatchedStep(const WatchedStep&) = delete;
  WatchedStep& operator=(const WatchedStep&) = delete;

 private:
  Watchdog* dog_;
};

}  // namespace collbench::engine
