#include "bench/mpi/mpi_comm.hpp"

#include "bench/mpi/mpi_error.hpp"

namespace collbench::mpi {

Status dup_world(MPI_Comm& comm, int& rank, int& size) {
  COLLBENCH_MPI_TRY(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  COLLBENCH_MPI_TRY(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  COLLBENCH_MPI_TRY(MPI_Comm_rank(comm, &rank));
  COLLBENCH_MPI_TRY(MPI_Comm_size(comm, &size));
  return ok_status();
}

}  // namespace collbench::mpi
