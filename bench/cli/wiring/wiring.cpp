#include "bench/cli/wiring/wiring.hpp"

#include <vector>

#include "bench/cli/wiring/adapter_registry.hpp"
#include "common/strings.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

Status launch_error(std::string message) { return Status::error(ErrorCode::kLaunch, std::move(message)); }

// Refuses the classic silent misbuild: a launcher started N processes, each of which would
// otherwise believe it is rank 0 of 1 and benchmark alone.
Status check_not_alone(const LaunchEnv& env) {
  if (env.launched_by_mpi() && env.launched_size().value_or(2) > 1) {
    const std::string count = env.launched_size() ? std::to_string(*env.launched_size()) + " processes"
                                                  : "PMI_RANK or PMIX_RANK set";
    return launch_error("started by an MPI launcher (" + count +
                        ") but this collbench was built without MPI; rebuild with libopenmpi-dev installed");
  }
  if (env.slurm_size && *env.slurm_size > 1) {
    return launch_error("started by srun with SLURM_NTASKS=" + std::to_string(*env.slurm_size) +
                        " but no MPI process manager is visible: use srun --mpi=pmix, or export "
                        "MASTER_ADDR and MASTER_PORT for the environment rendezvous");
  }
  return ok_status();
}

// torchrun's variables, or Slurm's with a rendezvous address: ranks meet over TCP.
bool wants_environment_rendezvous(const LaunchEnv& env) {
  return env.torch_size.has_value() || (env.slurm_size && *env.slurm_size > 1 && env.has_master_addr);
}

// Which bootstrap "auto" means for this launch.
Result<std::string> auto_bootstrap(const LaunchEnv& env) {
  if (env.launched_by_mpi() && find_bootstrap("mpi").ok()) return std::string("mpi");
  if (wants_environment_rendezvous(env)) return std::string("env");
  COLLBENCH_RETURN_IF_ERROR(check_not_alone(env));
  return std::string("single");
}

}  // namespace

Result<std::unique_ptr<bootstrap::Bootstrap>> Wiring::make_bootstrap(std::string_view choice, const LaunchEnv& env) {
  std::string name(choice);
  if (choice == "auto") {
    COLLBENCH_ASSIGN_OR_RETURN(name, auto_bootstrap(env));
  }
  COLLBENCH_ASSIGN_OR_RETURN(const bootstrap::BootstrapEntry* entry, find_bootstrap(name));
  COLLBENCH_ASSIGN_OR_RETURN(auto boot, entry->make({*process_, rendezvous_timeout_s_, stagger_ms_}));
  if (boot->name() == "mpi" && env.launched_size() && *env.launched_size() != boot->size()) {
    return launch_error("the launcher started " + std::to_string(*env.launched_size()) + " processes but MPI sees " +
                        std::to_string(boot->size()) + ": collbench was built against a different MPI than mpirun's");
  }
  return boot;
}

Result<std::unique_ptr<backend::Backend>> Wiring::make_backend(std::string_view choice, bootstrap::Bootstrap& boot,
                                                               const backend::DeviceOptions& device,
                                                               std::string& note) {
  const backend::BackendSetup setup{boot, topo::host_name(), topo::allowed_cpus(), device, *process_};
  const auto registration_check = [&](const backend::BackendEntry& e, const std::string& why_not_others) -> Status {
    if (device.register_buffers == 0 || e.features.registration) return ok_status();
    return Status::error(ErrorCode::kUnsupported, "-R/--local_register needs a backend that registers buffers (nccl)" +
                                                      (why_not_others.empty() ? "" : " (" + why_not_others + ")"));
  };
  if (choice != "auto") {
    COLLBENCH_ASSIGN_OR_RETURN(const backend::BackendEntry* entry, find_backend(choice));
    COLLBENCH_RETURN_IF_ERROR(entry->launchable(setup));
    COLLBENCH_RETURN_IF_ERROR(registration_check(*entry, ""));
    return entry->make(setup);
  }
  // Auto: the first usable entry. The note keeps why the device backends were passed over.
  std::vector<std::string> passed;
  bool any_device = false;
  for (const backend::BackendEntry* entry : built_backends()) {
    const bool device_memory = entry->features.memory == "device";
    any_device = any_device || device_memory;
    COLLBENCH_ASSIGN_OR_RETURN(const std::string why, entry->usable(setup));
    if (!why.empty()) {
      if (device_memory) passed.push_back(why);
      continue;
    }
    COLLBENCH_RETURN_IF_ERROR(registration_check(*entry, join(passed, "; ")));
    const std::string own = entry->auto_note(setup);
    if (!own.empty()) {
      note = passed.empty() ? (any_device || device_memory ? own : "no GPU backend in this build: " + own)
                            : join(passed, "; ") + "; " + own;
    }
    return entry->make(setup);
  }
  return Status::error(ErrorCode::kInternal, "no backend of this build can run here");
}

}  // namespace collbench::cli
