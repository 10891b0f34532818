// What every process can learn about its own host without hwloc.
#pragma once

#include <string>

namespace collbench::topo {

std::string host_name();
// The CPUs this process may run on, as a list ("0-3,8"), from the kernel's affinity mask.
std::string allowed_cpus();

}  // namespace collbench::topo
