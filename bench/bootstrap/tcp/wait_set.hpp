// The ranks an exchange in progress still waits for. The exchanging thread updates it; any
// other thread (a watchdog) may read it at any time.
#pragma once

#include <mutex>
#include <vector>

namespace collbench::bootstrap::tcp {

class WaitSet {
 public:
  void wait_for(const std::vector<int>& ranks) {
    std::lock_guard lock(mutex_);
    waiting_.clear();
    for (const int r : ranks) {
      if (static_cast<std::size_t>(r) >= waiting_.size()) waiting_.resize(static_cast<std::size_t>(r) + 1, false);
      waiting_[static_cast<std::size_t>(r)] = true;
    }
  }
  void arrived(int rank) {
    std::lock_guard lock(mutex_);
    if (static_cast<std::size_t>(rank) < waiting_.size()) waiting_[static_cast<std::size_t>(rank)] = false;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    waiting_.clear();
  }
  std::vector<int> pending() const {
    std::lock_guard lock(mutex_);
    std::vector<int> out;
    for (std::size_t r = 0; r < waiting_.size(); ++r) {
      if (waiting_[r]) out.push_back(static_cast<int>(r));
    }
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<bool> waiting_;
};

}  // namespace collbench::bootstrap::tcp
