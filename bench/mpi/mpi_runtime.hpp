// MPI's process-wide state, shared by the MPI bootstrap and the MPI backend: the CLI creates
// one Runtime and hands it to both; MPI is finalized when the last holder lets go.
// This header does not include <mpi.h>, so the code that wires things up stays MPI-free.
#pragma once

#include <memory>
#include <string>

#include "common/process_resources.hpp"
#include "common/status.hpp"

namespace collbench::mpi {

class Runtime {
 public:
  // Initializes MPI unless something else in the process already did.
  static Result<std::shared_ptr<Runtime>> create();
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // "Open MPI v4.1.4, package: ..., ident: ..." shortened to its first field.
  static std::string library_version();

 private:
  Runtime() = default;
  bool initialized_here_ = false;
};

// The process's MPI runtime, shared by the MPI bootstrap and the MPI backend: created by the
// first that asks (ProcessResources key "mpi").
Result<std::shared_ptr<Runtime>> shared_runtime(ProcessResources& process);

}  // namespace collbench::mpi
