// The MPI backend's registry entry: MPI collectives on host memory.
#include <memory>
#include <string>

#include "bench/backend/host_memory.hpp"
#include "bench/backend/mpi/mpi_communicator.hpp"

namespace collbench::backend {
namespace {

Status launchable(const BackendSetup& s) {
  if (s.boot.name().ends_with("threads")) {
    return Status::error(ErrorCode::kLaunch,
                         "the MPI backend runs one rank per process; -g N needs --backend nccl or bootstrap");
  }
  if (s.boot.name() != "mpi" && s.boot.size() > 1) {
    return Status::error(ErrorCode::kLaunch,
                         "the MPI backend needs ranks launched by mpirun or srun (the bootstrap is " +
                             std::string(s.boot.name()) + "); use --backend bootstrap");
  }
  return ok_status();
}

}  // namespace

const BackendEntry& mpi_backend_entry() {
  static const BackendEntry entry{
      .name = "mpi",
      .help = "MPI collectives on host memory (auto: under an MPI launcher, or one rank, when no GPU backend can run)",
      .auto_order = 1,
      .features = {.memory = "host",
                   .point_to_point = true,
                   .groups = false,
                   .graphs = false,
                   .registration = false,
                   .threads = false,
                   .allocates_per_call = true},
      .usable = [](const BackendSetup& s) -> Result<std::string> {
        const Status ok = launchable(s);
        return ok.ok() ? std::string() : ok.message();
      },
      .launchable = launchable,
      .make = [](const BackendSetup& s) -> Result<std::unique_ptr<Backend>> {
        COLLBENCH_ASSIGN_OR_RETURN(auto runtime, mpi::shared_runtime(s.process));
        COLLBENCH_ASSIGN_OR_RETURN(auto comm, make_mpi_communicator(std::move(runtime), s.boot.rank(), s.boot.size()));
        return std::make_unique<Backend>(std::make_unique<HostMemory>(s.cpu_set), std::move(comm));
      },
      .auto_note = [](const BackendSetup&) { return std::string("measuring MPI collectives on host memory"); },
      .loaded_library = {},  // the MPI library's version is in the run's header
  };
  return entry;
}

}  // namespace collbench::backend
