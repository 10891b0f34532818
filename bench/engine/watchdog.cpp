#include "bench/engine/watchdog.hpp"

#include "common/deadline.hpp"

namespace collbench::engine {

Watchdog::Watchdog(double timeout_s, double grace_s, Expired on_expired)
    : timeout_s_(timeout_s), grace_s_(grace_s), on_expired_(std::move(on_expired)) {
  if (enabled()) thread_ = std::jthread([this](const std::stop_token& stop) { watch(stop); });
}

Watchdog::~Watchdog() {
  if (thread_.joinable()) {
    thread_.request_stop();
    changed_.notify_all();
  }
}

void Watchdog::begin(std::string step, std::uint64_t operations) {
  if (!enabled()) return;
  std::lock_guard lock(mutex_);
  step_ = std::move(step);
  iteration_.store(0, std::memory_order_relaxed);
  limit_s_ = timeout_s_ * static_cast<double>(operations == 0 ? 1 : operations);
  deadline_ = deadline_after(std::chrono::steady_clock::now(), limit_s_ + grace_s_);
  changed_.notify_all();
}

void Watchdog::end() {
  if (!enabled()) return;
  std::lock_guard lock(mutex_);
  deadline_ = std::chrono::steady_clock::time_point::max();
  changed_.notify_all();
}

void Watchdog::watch(const std::stop_token& stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    const auto deadline = deadline_;
    if (deadline == std::chrono::steady_clock::time_point::max()) {
      changed_.wait(lock, stop, [&] { return deadline_ != deadline; });
      continue;
    }
    if (changed_.wait_until(lock, stop, deadline, [&] { return deadline_ != deadline; })) continue;
    if (stop.stop_requested()) return;
    const std::string step = step_;
    const double limit = limit_s_;
    lock.unlock();
    on_expired_(step, limit);  // normally does not return: it aborts the job
    return;
  }
}

}  // namespace collbench::engine
