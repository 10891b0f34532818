// What every process can learn about its own host without hwloc.
#pragma once

#include <cstdint>
#include <string>

namespace collbench::topo {

std::string host_name();
// The CPUs this process may run on, as a list ("0-3,8"), from the kernel's affinity mask.
std::string allowed_cpus();
// The size of the largest-level CPU cache of the CPU this process runs on first (sysfs
// /sys/devices/system/cpu/cpuN/cache), in bytes; 0 when the kernel does not say.
std::uint64_t last_level_cache_bytes();

}  // namespace collbench::topo
