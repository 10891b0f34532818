// What the process environment says about how it was launched (mpirun, srun, torchrun),
// read before any library is initialized.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace collbench::cli {

struct LaunchEnv {
  std::optional<int> mpi_rank;       // OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK
  std::optional<int> mpi_size;       // OMPI_COMM_WORLD_SIZE, PMI_SIZE
  std::optional<int> slurm_rank;     // SLURM_PROCID
  std::optional<int> slurm_size;     // SLURM_NTASKS
  std::optional<int> torch_rank;     // RANK
  std::optional<int> torch_size;     // WORLD_SIZE
  bool has_master_addr = false;      // MASTER_ADDR

  // The rank this process will most likely have, for deciding who prints early errors.
  int likely_rank() const;
  int likely_size() const;
  bool launched_by_mpi() const { return mpi_size.has_value(); }
};

LaunchEnv read_launch_env();

// Variables worth recording with a result: NCCL_*, OMPI_*, UCX_*, CUDA_*, SLURM_*, ...,
// never anything that looks like a secret.
std::vector<std::pair<std::string, std::string>> allow_listed_environment();

}  // namespace collbench::cli
