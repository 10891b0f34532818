// State that lives as long as the process's wiring and is shared by every bootstrap and
// backend of the process (with -g, by every thread): a library's runtime (MPI is initialised
// once for the bootstrap and the backend), and the emergency stops of every communicator, so
// that a timeout or an asynchronous error stops all of them at once, before anything is freed
// or destroyed (nccl-tests aborts its communicators the same way). Thread-safe. Created by the
// CLI's wiring and passed down; there is no global instance.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "common/status.hpp"

namespace collbench {

class ProcessResources {
 public:
  using Factory = std::function<Result<std::shared_ptr<void>>()>;

  // The runtime stored under `key`, made by `make` the first time it is asked for.
  Result<std::shared_ptr<void>> runtime(const std::string& key, const Factory& make);

  // Registers a communicator's emergency stop; returns a handle for forget_stop().
  int add_stop(std::function<void()> stop);
  // A communicator that ends normally takes its stop back first.
  void forget_stop(int handle);
  // Runs every registered stop once (later calls do nothing): on a timeout, an asynchronous
  // library error or a failed launch, before the job is torn down. Returns how many ran.
  int stop_all();
  // Whether stop_all() has begun: a communicator that ends after it is aborted, not destroyed
  // (a destroy waits for operations that may wait on a peer that is gone).
  bool stopped() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<void>> runtimes_;
  std::map<int, std::function<void()>> stops_;
  int next_stop_ = 0;
  bool stopped_ = false;
};

}  // namespace collbench
