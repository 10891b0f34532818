// Element types and reduction ops on MPI. Built-in ones where MPI has them; for half,
// bfloat16 and fp8, a built-in integer type of the same width carries the bits and
// user-defined ops compute in the element type's arithmetic (bench/backend/host_reduce).
// avg and premulsum have no MPI op: the backend runs them as sum (see MpiBackend::launch).
#pragma once

#include <mpi.h>

#include <map>
#include <optional>
#include <utility>

#include "common/status.hpp"
#include "common/types.hpp"

namespace collbench::backend {

class MpiTypes {
 public:
  MpiTypes() = default;
  ~MpiTypes();
  MpiTypes(const MpiTypes&) = delete;
  MpiTypes& operator=(const MpiTypes&) = delete;

  // Creates the user-defined ops; MPI must be initialized.
  Status init();

  MPI_Datatype datatype(DataType type) const;
  // The op that combines partial results: for avg and premulsum, the sum.
  MPI_Op op(DataType type, ReduceOp op) const;

 private:
  std::map<std::pair<DataType, ReduceOp>, MPI_Op> user_ops_;
};

}  // namespace collbench::backend
