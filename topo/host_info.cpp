#include "topo/host_info.hpp"

#include <sched.h>
#include <unistd.h>

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

}  // namespace collbench::topo
