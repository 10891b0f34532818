// The environment rendezvous over TCP: ranks started by torchrun, srun or
// scripts/launch-local.sh find each other through MASTER_ADDR:MASTER_PORT (rendezvous.hpp),
// then run the bootstrap operations over a star of connections through rank 0. Every
// operation is bounded by the configured timeout.
#pragma once

#include <memory>

#include "bench/bootstrap/bootstrap.hpp"
#include "bench/bootstrap/tcp/env_config.hpp"

namespace collbench::bootstrap {

// Meets the other ranks and returns the bootstrap ("env"). Blocks at most cfg.timeout_s (other
// ranks: one second more, to hear rank 0's verdict). Errors, in plain words:
//   kUsage    an invalid EnvConfig
//   kLaunch   MASTER_ADDR does not resolve; connection refused; host unreachable; MASTER_PORT
//             in use on rank 0; a rank turned away for a wrong job token, WORLD_SIZE or RANK
//             (said on both sides)
//   kTimeout  no answer from MASTER_ADDR:MASTER_PORT (firewall); ranks that never joined
//             (rank 0 names them; the others hear it from rank 0)
// Rank 0 raises its open-file limit when WORLD_SIZE needs more descriptors than allowed.
Result<std::unique_ptr<Bootstrap>> make_env_bootstrap(const EnvConfig& cfg);

}  // namespace collbench::bootstrap
