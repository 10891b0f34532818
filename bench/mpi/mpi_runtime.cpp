#include "bench/mpi/mpi_runtime.hpp"

#include <dlfcn.h>
#include <mpi.h>

#include <cstdlib>
#include <filesystem>

#include "bench/mpi/mpi_error.hpp"

namespace collbench::mpi {
namespace {

// Where this process's libmpi lives (links resolved), from the loaded library itself; empty
// when unknown.
std::filesystem::path libmpi_dir() {
  Dl_info info{};
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): dladdr takes any address
  if (dladdr(reinterpret_cast<void*>(&MPI_Init), &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code ec;
  const auto path = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::filesystem::path() : path.parent_path();
}

// Open MPI's component folder beside its libmpi: <libdir>/openmpi (upstream, RHEL) or
// <libdir>/openmpi/lib/openmpi3 (Debian); empty when none is found.
std::filesystem::path component_dir(const std::filesystem::path& libdir) {
  for (const char* sub : {"openmpi/lib/openmpi3", "openmpi3", "openmpi"}) {
    std::error_code ec;
    if (std::filesystem::exists(libdir / sub / "mca_pmix_isolated.so", ec)) return libdir / sub;
  }
  return {};
}

// Slurm's PMI-2 (srun --mpi=pmi2) hands each task a PMI_FD. Open MPI speaks PMI-1/2 only
// through its pmix s1/s2 components, which some distributions (Debian's 4.1 among them) do not
// build: MPI_Init would then abort the job with a page of text. One line instead, before it.
// Where the component folder cannot be found, MPI_Init decides.
Status check_pmi_support() {
  if (std::getenv("PMI_FD") == nullptr || std::getenv("PMIX_RANK") != nullptr) return ok_status();
  const std::string version = Runtime::library_version();
  if (!version.starts_with("Open MPI")) return ok_status();
  const std::filesystem::path dir = component_dir(libmpi_dir());
  if (dir.empty()) return ok_status();
  for (const char* component : {"mca_pmix_s1.so", "mca_pmix_s2.so"}) {
    std::error_code ec;
    if (std::filesystem::exists(dir / component, ec)) return ok_status();
  }
  return Status::error(ErrorCode::kLaunch, "started with PMI-2 (srun --mpi=pmi2: PMI_FD is set) but " + version +
                                               " has no PMI-1/PMI-2 support (no mca_pmix_s1/s2 component in " +
                                               dir.string() + "): launch with srun --mpi=pmix, or with mpirun");
}

}  // namespace

Status to_status(int rc, std::string_view call, SourceLocation where) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  std::string name(call.substr(0, call.find('(')));
  return Status::error(ErrorCode::kComm, name + " failed: " + std::string(text, static_cast<std::size_t>(len)), where);
}

Result<std::shared_ptr<Runtime>> Runtime::create() {
  std::shared_ptr<Runtime> runtime(new Runtime());
  int initialized = 0;
  COLLBENCH_MPI_TRY(MPI_Initialized(&initialized));
  if (!initialized) {
    COLLBENCH_RETURN_IF_ERROR(check_pmi_support());
    int provided = 0;
    // Only the main thread calls MPI; the watchdog thread only ever calls MPI_Abort.
    COLLBENCH_MPI_TRY(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided));
    runtime->initialized_here_ = true;
  }
  // Errors come back as codes (and become Status values) instead of aborting the job.
  COLLBENCH_MPI_TRY(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  return runtime;
}

Runtime::~Runtime() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (initialized_here_ && !finalized) MPI_Finalize();
}

std::string Runtime::library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  if (MPI_Get_library_version(text, &len) != MPI_SUCCESS) return "MPI (unknown version)";
  std::string version(text, static_cast<std::size_t>(len));
  if (auto comma = version.find(','); comma != std::string::npos) version.resize(comma);
  while (!version.empty() && (version.back() == '\n' || version.back() == ' ')) version.pop_back();
  return version;
}

Result<std::shared_ptr<Runtime>> shared_runtime(ProcessResources& process) {
  COLLBENCH_ASSIGN_OR_RETURN(auto any, process.runtime("mpi", []() -> Result<std::shared_ptr<void>> {
    COLLBENCH_ASSIGN_OR_RETURN(std::shared_ptr<Runtime> made, Runtime::create());
    return std::shared_ptr<void>(std::move(made));
  }));
  return std::static_pointer_cast<Runtime>(any);
}

}  // namespace collbench::mpi
