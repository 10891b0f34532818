// How much CPU the operating system kept from a rank: its thread's involuntary context
// switches (getrusage RUSAGE_THREAD: preempted because another runnable task wanted the CPU)
// and its host's steal time (/proc/stat: a hypervisor gave the host's virtual CPUs to other
// guests). Read around a phase, the difference tells a rank starved of CPU from one slowed by
// its network: `collbench locate` names the cause in its finding (docs/locate.md).
#pragma once

#include <string_view>

namespace collbench {

struct CpuUsage {
  double involuntary_switches = 0;  // of the calling thread (a rank: a process, or a thread with -g)
  double steal_s = 0;               // of the whole host, summed over its CPUs
  double online_cpus = 0;
  bool steal_known = false;  // /proc/stat was readable and had a steal column
};

// Now, for the calling thread and its host.
CpuUsage cpu_usage_now();

// What happened between two readings (`later` minus `earlier`; the CPU count of `later`).
CpuUsage cpu_usage_between(const CpuUsage& earlier, const CpuUsage& later);

// The steal time in seconds from /proc/stat's text (its aggregate "cpu" line, in clock ticks of
// `ticks_per_s`); a negative value when the text has no such column (kernels before 2.6.11).
double steal_seconds_of(std::string_view proc_stat, double ticks_per_s);

}  // namespace collbench
