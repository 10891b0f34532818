// Collectives computed from the bootstrap's own exchanges: every rank gathers all inputs
// and computes its output locally. Slow by design (O(n x size) memory and traffic through
// the bootstrap), exact, and independent of MPI and NCCL: it gives `preflight` and
// environment-launched CPU jobs a working process group, and tests a reference result.
#pragma once

#include <memory>
#include <string>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"

namespace collbench::backend {

std::unique_ptr<Backend> make_bootstrap_backend(bootstrap::Bootstrap& boot, std::string cpu_set);

}  // namespace collbench::backend
