// A communicator of one's own. Adapter files only (includes <mpi.h>).
#pragma once

#include <mpi.h>

#include "common/status.hpp"

namespace collbench::mpi {

// Duplicates MPI_COMM_WORLD into `comm`, makes its errors return instead of aborting, and
// reads this rank's place in it. The bootstrap and the backend each take one, so control
// traffic can never match a message of the measured collectives.
Status dup_world(MPI_Comm& comm, int& rank, int& size);

}  // namespace collbench::mpi
