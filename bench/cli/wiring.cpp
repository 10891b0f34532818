#include "bench/cli/wiring.hpp"

#include <array>

#include "bench/backend/bootstrap_backend.hpp"
#include "bench/bootstrap/single.hpp"
#include "bench/bootstrap/tcp/env_bootstrap.hpp"
#include "collbench_features.hpp"
#include "topo/host_info.hpp"

#if COLLBENCH_HAVE_NCCL
#include "bench/backend/nccl/nccl_backend.hpp"
#endif
#if COLLBENCH_HAVE_MPI
#include "bench/backend/mpi/mpi_backend.hpp"
#include "bench/bootstrap/mpi/mpi_bootstrap.hpp"
#include "bench/mpi/mpi_runtime.hpp"
#endif

namespace collbench::cli {

struct Wiring::State {
#if COLLBENCH_HAVE_MPI
  std::shared_ptr<mpi::Runtime> mpi;

  Result<std::shared_ptr<mpi::Runtime>> mpi_runtime() {
    if (mpi) return mpi;
    COLLBENCH_ASSIGN_OR_RETURN(mpi, mpi::Runtime::create());
    return mpi;
  }
#endif
};

Wiring::Wiring() : state_(std::make_unique<State>()) {}
Wiring::~Wiring() = default;

namespace {

Status launch_error(std::string message) { return Status::error(ErrorCode::kLaunch, std::move(message)); }

// Refuses the classic silent misbuild: a launcher started N processes, each of which would
// otherwise believe it is rank 0 of 1 and benchmark alone.
Status check_not_alone(const LaunchEnv& env) {
  if (env.launched_by_mpi() && env.launched_size().value_or(2) > 1) {
    const std::string count = env.launched_size() ? std::to_string(*env.launched_size()) + " processes" : "PMI_RANK or PMIX_RANK set";
    return launch_error("started by an MPI launcher (" + count +
                        ") but this collbench was built without MPI; rebuild with libopenmpi-dev installed");
  }
  if (env.slurm_size && *env.slurm_size > 1) {
    return launch_error("started by srun with SLURM_NTASKS=" + std::to_string(*env.slurm_size) +
                        " but no MPI process manager is visible: use srun --mpi=pmix (or pmi2), or export "
                        "MASTER_ADDR and MASTER_PORT for the environment rendezvous");
  }
  return ok_status();
}

// torchrun's variables, or Slurm's with a rendezvous address: ranks meet over TCP.
bool wants_environment_rendezvous(const LaunchEnv& env) {
  return env.torch_size.has_value() || (env.slurm_size && *env.slurm_size > 1 && env.has_master_addr);
}

#if COLLBENCH_HAVE_MPI
bool threaded(const bootstrap::Bootstrap& boot) { return boot.name().ends_with("threads"); }
#endif

#if COLLBENCH_HAVE_NCCL
// Why the job cannot use NCCL (a rank sees no GPU), or "" when every rank sees one. All ranks
// decide together: a job split between two backends would hang in its first collective.
Result<std::string> why_no_gpus(bootstrap::Bootstrap& boot) {
  const backend::CudaProbe probe = backend::probe_cuda();
  std::array<double, 1> all_have = {probe.devices > 0 ? 1.0 : 0.0};
  COLLBENCH_RETURN_IF_ERROR(boot.allreduce(all_have, ReduceOp::kMin));
  if (all_have[0] != 0) return std::string();
  return probe.devices > 0 ? std::string("another rank sees no CUDA device") : probe.error;
}
#endif

}  // namespace

Result<std::unique_ptr<bootstrap::Bootstrap>> Wiring::make_bootstrap(std::string_view choice, const LaunchEnv& env) {
  const bool want_mpi = choice == "mpi" || (choice == "auto" && env.launched_by_mpi());
  if (want_mpi) {
#if COLLBENCH_HAVE_MPI
    COLLBENCH_ASSIGN_OR_RETURN(auto runtime, state_->mpi_runtime());
    COLLBENCH_ASSIGN_OR_RETURN(auto boot, bootstrap::make_mpi_bootstrap(runtime));
    if (env.launched_size() && *env.launched_size() != boot->size()) {
      return launch_error("the launcher started " + std::to_string(*env.launched_size()) + " processes but MPI sees " +
                          std::to_string(boot->size()) + ": collbench was built against a different MPI than mpirun's");
    }
    return boot;
#else
    if (choice == "mpi") return Status::error(ErrorCode::kUnsupported, "--bootstrap mpi: this build has no MPI");
#endif
  }
  if (choice == "env" || (choice == "auto" && wants_environment_rendezvous(env))) {
    COLLBENCH_ASSIGN_OR_RETURN(const auto config,
                               bootstrap::env_config_from_environment(rendezvous_timeout_s_, stagger_ms_));
    return bootstrap::make_env_bootstrap(config);
  }
  if (choice == "auto") COLLBENCH_RETURN_IF_ERROR(check_not_alone(env));
  return std::unique_ptr<bootstrap::Bootstrap>(std::make_unique<bootstrap::SingleBootstrap>());
}

Result<std::unique_ptr<backend::Backend>> Wiring::make_backend(std::string_view choice, bootstrap::Bootstrap& boot,
                                                               int register_buffers, std::string& note) {
  std::string no_gpu;  // why "auto" did not pick NCCL, for the note
#if COLLBENCH_HAVE_NCCL
  if (choice == "auto") {
    COLLBENCH_ASSIGN_OR_RETURN(no_gpu, why_no_gpus(boot));
  }
  if (choice == "nccl" || (choice == "auto" && no_gpu.empty())) {
    return backend::make_nccl_backend(boot, {topo::host_name(), register_buffers});
  }
#else
  if (choice == "nccl") {
    return Status::error(ErrorCode::kUnsupported, "--backend nccl: this collbench was built without NCCL (configure "
                                                  "with -DCOLLBENCH_WITH_NCCL=ON where CUDA and NCCL are installed)");
  }
#endif
  if (register_buffers > 0) {
    return Status::error(ErrorCode::kUnsupported, "-R/--local_register needs the nccl backend" +
                                                      (no_gpu.empty() ? std::string() : " (" + no_gpu + ")"));
  }
  const std::string fallback = no_gpu.empty() ? "" : no_gpu + "; ";
  const bool mpi_launch = boot.name() == "mpi";
  bool want_mpi = choice == "mpi" || (choice == "auto" && (mpi_launch || boot.size() == 1));
#if !COLLBENCH_HAVE_MPI
  if (choice == "mpi") return Status::error(ErrorCode::kUnsupported, "--backend mpi: this build has no MPI");
  want_mpi = false;
#endif
  if (want_mpi) {
#if COLLBENCH_HAVE_MPI
    if (threaded(boot)) {
      return launch_error("the MPI backend runs one rank per process; -g N needs --backend nccl or bootstrap");
    }
    if (!mpi_launch && boot.size() > 1) {
      return launch_error("the MPI backend needs ranks launched by mpirun or srun (the bootstrap is " +
                          std::string(boot.name()) + "); use --backend bootstrap");
    }
    if (choice == "auto") {
      note = (COLLBENCH_HAVE_NCCL ? fallback : std::string("no GPU backend in this build: ")) +
             "measuring MPI collectives on host memory";
    }
    COLLBENCH_ASSIGN_OR_RETURN(auto runtime, state_->mpi_runtime());
    return backend::make_mpi_backend(runtime, boot.rank(), boot.size(), topo::allowed_cpus());
#endif
  }
  if (choice == "auto") {
    note = fallback + "collectives run through the " + std::string(boot.name()) +
           " bootstrap on host memory: a correctness check, not a bandwidth measurement";
  }
  return backend::make_bootstrap_backend(boot, topo::allowed_cpus());
}

std::string compiled_features() {
  std::string out = "bootstraps: single, env, threads (-g)";
  if (COLLBENCH_HAVE_MPI) out += ", mpi";
  out += "; backends:";
  if (COLLBENCH_HAVE_MPI) out += " mpi,";
  if (COLLBENCH_HAVE_NCCL) out += " nccl,";
  out += " bootstrap";
  out += "; topology: ";
  out += COLLBENCH_HAVE_HWLOC ? "hwloc" : "none";
  return out;
}

}  // namespace collbench::cli
