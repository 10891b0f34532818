// The environment rendezvous over TCP: ranks started by torchrun, srun or
// scripts/launch-local.sh find each other through MASTER_ADDR:MASTER_PORT (rendezvous.hpp),
// then run the bootstrap operations over a star of connections through rank 0. Every
// operation is bounded by the configured timeout.
#pragma once

#include <memory>

#include "bench/bootstrap/bootstrap.hpp"
#include "bench/bootstrap/tcp/env_config.hpp"

namespace collbench::bootstrap {

// Meets the other ranks and returns the bootstrap ("env"). Rank 0 waits at most config.timeout_s
// for the others. Another rank waits at most config.timeout_s to reach rank 0; once admitted, it
// waits until one second after rank 0 gives up (rank 0 tells it when), so that it hears rank
// 0's verdict naming the missing ranks. Each later operation is bounded the same way: rank 0
// by config.timeout_s, the others by one second more. Errors, in plain words:
//   kUsage    an invalid EnvConfig
//   kLaunch   MASTER_ADDR does not resolve; connection refused; host unreachable; MASTER_PORT
//             in use on rank 0; a rank turned away for a wrong job token, WORLD_SIZE or RANK
//             (said on both sides)
//   kTimeout  no answer from MASTER_ADDR:MASTER_PORT (firewall); ranks that never joined
//             (rank 0 names them; the others hear it from rank 0); a silent name server
// Rank 0 raises its open-file limit when WORLD_SIZE needs more descriptors than allowed.
//
// The operations fail with kTimeout naming the ranks (and hosts) rank 0 still waits for;
// kComm when a rank closed its connection (it exited or crashed); the error code of another
// rank's abort() exit code ("rank 3 aborted the job (exit code 4)" is kTimeout); kInternal when
// ranks called different operations. Rank 0 forwards its failure to every other rank, and
// after a failure every later operation fails at once. missing_ranks() is exact on rank 0 and
// {0} on the others while they wait.
Result<std::unique_ptr<Bootstrap>> make_env_bootstrap(const EnvConfig& config);

}  // namespace collbench::bootstrap
