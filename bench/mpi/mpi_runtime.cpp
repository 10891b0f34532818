#include "bench/mpi/mpi_runtime.hpp"

#include <mpi.h>

#include "bench/mpi/mpi_error.hpp"

namespace collbench::mpi {
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

}  // namespace collbench::mpi
