// Bootstrap over MPI_COMM_WORLD (mpirun, srun with PMI/PMIx).
#pragma once

#include <memory>

#include "bench/bootstrap/bootstrap.hpp"
#include "bench/bootstrap/bootstrap_entry.hpp"
#include "bench/mpi/mpi_runtime.hpp"

namespace collbench::bootstrap {

Result<std::unique_ptr<Bootstrap>> make_mpi_bootstrap(std::shared_ptr<mpi::Runtime> runtime);

const BootstrapEntry& mpi_bootstrap_entry();

}  // namespace collbench::bootstrap
