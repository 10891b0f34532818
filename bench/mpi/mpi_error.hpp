// MPI return codes as Status values carrying MPI's own error text. Adapter files only.
#pragma once

#include <mpi.h>

#include <string_view>

#include "common/status.hpp"

namespace collbench::mpi {

Status to_status(int rc, std::string_view call, SourceLocation where = SourceLocation::current());

}  // namespace collbench::mpi

// Evaluates an MPI call; returns a kComm Status naming the call and MPI's message on failure.
#define COLLBENCH_MPI_TRY(call)                                                                         \
  do {                                                                                                  \
    const int collbench_mpi_rc_ = (call);                                                               \
    if (collbench_mpi_rc_ != MPI_SUCCESS) return ::collbench::mpi::to_status(collbench_mpi_rc_, #call); \
  } while (false)
