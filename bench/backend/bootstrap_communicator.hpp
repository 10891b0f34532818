// Collectives computed from the bootstrap's own exchanges: every rank gathers all inputs
// and computes its output locally. Slow by design (O(n x size) memory and traffic through
// the bootstrap), exact, and independent of MPI and NCCL: it gives `preflight` and
// environment-launched CPU jobs a working process group, and tests a reference result.
#pragma once

#include <memory>

#include "bench/backend/communicator.hpp"
#include "bench/bootstrap/bootstrap.hpp"

namespace collbench::backend {

std::unique_ptr<Communicator> make_bootstrap_communicator(bootstrap::Bootstrap& boot);

}  // namespace collbench::backend
