// What the process environment says about how it was launched (mpirun, srun, torchrun),
// read before any library is initialized.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace collbench::cli {

struct LaunchEnv {
  std::optional<int> mpi_rank;    // OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK
  std::optional<int> mpi_size;    // OMPI_COMM_WORLD_SIZE, PMI_SIZE (srun --mpi=pmix sets none)
  std::optional<int> slurm_rank;  // SLURM_PROCID
  std::optional<int> slurm_size;  // SLURM_NTASKS
  std::optional<int> torch_rank;  // RANK
  std::optional<int> torch_size;  // WORLD_SIZE
  bool has_master_addr = false;   // MASTER_ADDR

  // The rank this process will most likely have, for deciding who prints early errors.
  int likely_rank() const;
  int likely_size() const;
  // A process manager that MPI_Init can join: mpirun's variables, or srun's PMIx/PMI-2 ones.
  // `srun --mpi=pmix` sets PMIX_RANK and no size variable, so a rank alone is enough.
  bool launched_by_mpi() const { return mpi_rank.has_value() || mpi_size.has_value(); }
  // The number of processes the launcher started, where it says: mpirun's size variable, or
  // SLURM_NTASKS for a process manager under srun that has none.
  std::optional<int> launched_size() const { return mpi_size ? mpi_size : (mpi_rank ? slurm_size : std::nullopt); }
};

LaunchEnv read_launch_env();

// The launcher's idea of the world size; one that disagrees with the joined ranks wins, so
// that preflight can name it. -1 when no launcher variable gives a size.
int launcher_world_size(const LaunchEnv& env, int joined);

// Variables worth recording with a result: NCCL_*, OMPI_*, UCX_*, CUDA_*, SLURM_*, ...,
// never anything that looks like a secret.
std::vector<std::pair<std::string, std::string>> allow_listed_environment();

}  // namespace collbench::cli
