// Collectives over MPI: on host memory, the backend for machines without GPUs and a
// reference for the host side of any cluster.
#pragma once

#include <memory>

#include "bench/backend/backend_entry.hpp"
#include "bench/backend/communicator.hpp"
#include "bench/mpi/mpi_runtime.hpp"

namespace collbench::backend {

// Fails when MPI's world differs from the bootstrap's view of the job (rank, size).
Result<std::unique_ptr<Communicator>> make_mpi_communicator(std::shared_ptr<mpi::Runtime> runtime, int expected_rank,
                                                            int expected_size);

const BackendEntry& mpi_backend_entry();

}  // namespace collbench::backend
