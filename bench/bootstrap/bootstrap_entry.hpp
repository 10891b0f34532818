// What each bootstrap adapter tells the wiring about itself (see bench/backend/backend_entry.hpp
// for backends): its name, its help line, and how to make one. The CLI's registry reads the
// list of compiled entries that the build writes (cmake/CollbenchAdapters.cmake).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "bench/bootstrap/bootstrap.hpp"
#include "common/process_resources.hpp"

namespace collbench::bootstrap {

struct BootstrapSetup {
  ProcessResources& process;
  double rendezvous_timeout_s = 60;  // the environment rendezvous' bound on every wait
  std::uint32_t stagger_ms = 0;      // spread its connects over this many ms
};

struct BootstrapEntry {
  std::string_view name;  // --bootstrap NAME
  std::string_view help;  // one line: when auto picks it
  std::function<Result<std::unique_ptr<Bootstrap>>(const BootstrapSetup&)> make;
};

const BootstrapEntry& single_bootstrap_entry();
const BootstrapEntry& env_bootstrap_entry();

}  // namespace collbench::bootstrap
