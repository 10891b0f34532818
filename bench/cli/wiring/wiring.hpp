// Chooses and creates the bootstrap and the backend for a command from the registry of this
// build's adapters (adapter_registry.hpp) and what the launcher set (launch_env.hpp). The process's
// shared state (the MPI runtime, every communicator's emergency stop) lives here and is
// shared by the sessions of one process (ThreadedSessions).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "bench/backend/backend.hpp"
#include "bench/backend/backend_entry.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/cli/wiring/launch_env.hpp"
#include "common/process_resources.hpp"

namespace collbench::cli {

class Wiring {
 public:
  Wiring() : process_(std::make_shared<ProcessResources>()) {}
  // Another wiring of the same process (a -g thread's): the same runtimes and stops.
  explicit Wiring(std::shared_ptr<ProcessResources> process) : process_(std::move(process)) {}

  // How long the environment rendezvous may take, and how far to spread connects (ms).
  void set_rendezvous(double timeout_s, std::uint32_t stagger_ms) {
    rendezvous_timeout_s_ = timeout_s;
    stagger_ms_ = stagger_ms;
  }

  // choice: "auto" or a bootstrap's name.
  Result<std::unique_ptr<bootstrap::Bootstrap>> make_bootstrap(std::string_view choice, const LaunchEnv& env);
  // choice: "auto" or a backend's name; "auto" takes the first built backend (in registry
  // order) that every rank can use. `note` receives a one-line explanation of an automatic
  // fallback. Every rank of `boot` calls it.
  Result<std::unique_ptr<backend::Backend>> make_backend(std::string_view choice, bootstrap::Bootstrap& boot,
                                                         const backend::DeviceOptions& device, std::string& note);

  ProcessResources& process() { return *process_; }
  const std::shared_ptr<ProcessResources>& shared_process() const { return process_; }

 private:
  std::shared_ptr<ProcessResources> process_;
  double rendezvous_timeout_s_ = 30;
  std::uint32_t stagger_ms_ = 0;
};

}  // namespace collbench::cli
