// Collectives over MPI on host memory: the backend for machines without GPUs, and a
// reference for the host side of any cluster.
#pragma once

#include <memory>

#include "bench/backend/backend.hpp"
#include "bench/mpi/mpi_runtime.hpp"

namespace collbench::backend {

// Fails when MPI's world differs from the bootstrap's view of the job (rank, size).
Result<std::unique_ptr<Backend>> make_mpi_backend(std::shared_ptr<mpi::Runtime> runtime, int expected_rank,
                                                  int expected_size, std::string cpu_set);

}  // namespace collbench::backend
