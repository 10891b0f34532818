#include "common/cpu_usage.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace collbench {
namespace {

constexpr int kStealColumn = 8;  // cpu user nice system idle iowait irq softirq steal ...

}  // namespace

double steal_seconds_of(std::string_view proc_stat, double ticks_per_s) {
  std::istringstream lines{std::string(proc_stat)};
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name != "cpu") continue;  // the aggregate line, not cpu0, cpu1, ...
    double value = 0;
    for (int column = 1; column <= kStealColumn; ++column) {
      if (!(fields >> value)) return -1;
    }
    return ticks_per_s > 0 ? value / ticks_per_s : -1;
  }
  return -1;
}

CpuUsage cpu_usage_now() {
  CpuUsage u;
  rusage ru{};
  // The calling thread only: with -g every rank is a thread of one process.
  if (getrusage(RUSAGE_THREAD, &ru) == 0) u.involuntary_switches = static_cast<double>(ru.ru_nivcsw);
  std::ifstream in("/proc/stat");
  std::stringstream text;
  text << in.rdbuf();
  const double steal = steal_seconds_of(text.str(), static_cast<double>(sysconf(_SC_CLK_TCK)));
  u.steal_known = steal >= 0;
  u.steal_s = u.steal_known ? steal : 0;
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  u.online_cpus = cpus > 0 ? static_cast<double>(cpus) : 0;
  return u;
}

CpuUsage cpu_usage_between(const CpuUsage& earlier, const CpuUsage& later) {
  return {.involuntary_switches = later.involuntary_switches - earlier.involuntary_switches,
          .steal_s = later.steal_s - earlier.steal_s,
          .online_cpus = later.online_cpus,
          .steal_known = earlier.steal_known && later.steal_known};
}

}  // namespace collbench
