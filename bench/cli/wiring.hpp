// Chooses and creates the bootstrap and the backend for a command. The only code that knows
// which libraries this build has (COLLBENCH_HAVE_*) and which launcher started the process.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "bench/cli/launch_env.hpp"

namespace collbench::cli {

class Wiring {
 public:
  Wiring();
  ~Wiring();
  Wiring(const Wiring&) = delete;
  Wiring& operator=(const Wiring&) = delete;

  // How long the environment rendezvous may take, and how far to spread connects (ms).
  void set_rendezvous(double timeout_s, std::uint32_t stagger_ms) {
    rendezvous_timeout_s_ = timeout_s;
    stagger_ms_ = stagger_ms;
  }

  // choice: "auto", "mpi", "env" or "single".
  Result<std::unique_ptr<bootstrap::Bootstrap>> make_bootstrap(std::string_view choice, const LaunchEnv& env);
  // choice: "auto", "nccl", "mpi" or "bootstrap"; "auto" is nccl when this build has it and
  // every rank sees a GPU. `note` receives a one-line explanation of an automatic fallback.
  // `register_buffers` is -R (nccl only). Every rank of `boot` calls it.
  Result<std::unique_ptr<backend::Backend>> make_backend(std::string_view choice, bootstrap::Bootstrap& boot,
                                                         int register_buffers, std::string& note);

 private:
  struct State;
  std::unique_ptr<State> state_;
  double rendezvous_timeout_s_ = 30;
  std::uint32_t stagger_ms_ = 0;
};

// Names of the bootstraps and backends compiled into this binary, for --help and version.
std::string compiled_features();

}  // namespace collbench::cli
