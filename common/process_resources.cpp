#include "common/process_resources.hpp"

#include <utility>
#include <vector>

namespace collbench {

Result<std::shared_ptr<void>> ProcessResources::runtime(const std::string& key, const Factory& make) {
  const std::lock_guard lock(mutex_);
  if (auto it = runtimes_.find(key); it != runtimes_.end()) return it->second;
  COLLBENCH_ASSIGN_OR_RETURN(std::shared_ptr<void> made, make());
  runtimes_.emplace(key, made);
  return made;
}

int ProcessResources::add_stop(std::function<void()> stop) {
  const std::lock_guard lock(mutex_);
  const int handle = next_stop_++;
  stops_.emplace(handle, std::move(stop));
  return handle;
}

void ProcessResources::forget_stop(int handle) {
  const std::lock_guard lock(mutex_);
  stops_.erase(handle);
}

int ProcessResources::stop_all() {
  std::vector<std::function<void()>> stops;
  {
    const std::lock_guard lock(mutex_);
    if (stopped_) return 0;
    stopped_ = true;
    for (auto& [handle, stop] : stops_) stops.push_back(std::move(stop));
    stops_.clear();
  }
  // Outside the lock: a stop may take a while (a library tearing down its threads), and a
  // communicator being destroyed meanwhile must still be able to forget its stop.
  for (auto& stop : stops) stop();
  return static_cast<int>(stops.size());
}

bool ProcessResources::stopped() const {
  const std::lock_guard lock(mutex_);
  return stopped_;
}

}  // namespace collbench
