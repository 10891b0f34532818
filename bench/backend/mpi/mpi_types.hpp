// Mapping of collbench's element types and reduction ops onto MPI's built-in ones.
#pragma once

#include <mpi.h>

#include <optional>

#include "common/types.hpp"

namespace collbench::backend {

std::optional<MPI_Datatype> mpi_datatype(DataType type);
std::optional<MPI_Op> mpi_op(ReduceOp op);

}  // namespace collbench::backend
