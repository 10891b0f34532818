// The backends and bootstraps of this build, as the build lists them
// (cmake/CollbenchAdapters.cmake writes collbench_adapters.hpp): lookups by name, the help of
// --backend and --bootstrap, and the features line of --version. The only list of adapters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bench/backend/backend_entry.hpp"
#include "bench/bootstrap/bootstrap_entry.hpp"

namespace collbench::cli {

// The built backends, in the order --backend auto tries them.
std::vector<const backend::BackendEntry*> built_backends();

// kUnsupported saying how to get it for a backend this build lacks; kUsage for an unknown name.
Result<const backend::BackendEntry*> find_backend(std::string_view name);
Result<const bootstrap::BootstrapEntry*> find_bootstrap(std::string_view name);

// Every backend or bootstrap name this source knows, built or not (for flag validation).
std::vector<std::string> known_backends();
std::vector<std::string> known_bootstraps();

// The help of --backend and --bootstrap: auto, then each built one and what it does.
std::string backend_flag_help();
std::string bootstrap_flag_help();

// "bootstraps: mpi, env, single, threads (-g); backends: nccl (device), mpi (host), ...; topology: hwloc"
std::string compiled_features();

// --version: collbench's version and commit, then one line per backend that loaded a library
// ("nccl: NCCL 2.21.5 loaded (headers 2.28.9)").
std::string version_text(const std::string& first_line);

}  // namespace collbench::cli
