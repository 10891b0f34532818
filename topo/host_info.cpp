#include "topo/host_info.hpp"

#include <sched.h>
#include <unistd.h>

#include <fstream>

#include "common/units.hpp"

namespace collbench::topo {

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::string allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return "";
  std::string out;
  for (int cpu = 0; cpu < CPU_SETSIZE;) {
    if (!CPU_ISSET(static_cast<std::size_t>(cpu), &set)) {
      ++cpu;
      continue;
    }
    int last = cpu;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(static_cast<std::size_t>(last + 1), &set)) ++last;
    if (!out.empty()) out += ',';
    out += std::to_string(cpu);
    if (last > cpu) out += "-" + std::to_string(last);
    cpu = last + 1;
  }
  return out;
}

std::uint64_t last_level_cache_bytes() {
  cpu_set_t set;
  CPU_ZERO(&set);
  int cpu = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    while (cpu < CPU_SETSIZE - 1 && !CPU_ISSET(static_cast<std::size_t>(cpu), &set)) ++cpu;
  }
  int best_level = 0;
  std::uint64_t best = 0;
  const std::string base = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache/index";
  for (int index = 0; index < 16; ++index) {
    std::ifstream level_file(base + std::to_string(index) + "/level");
    std::ifstream size_file(base + std::to_string(index) + "/size");
    int level = 0;
    std::string size;  // "32768K"
    if (!(level_file >> level) || !(size_file >> size)) break;
    auto bytes = parse_size(size);  // binary suffixes, as sysfs writes them
    if (bytes.ok() && level > best_level) {
      best_level = level;
      best = *bytes;
    }
  }
  return best;
}

}  // namespace collbench::topo
