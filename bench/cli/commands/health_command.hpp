// `collbench health`: one command for Slurm prologs and epilogs, Kubernetes jobs and node
// acceptance. Within a time budget: preflight, a short checked sweep, each host's topology
// against a reference (a capture, or the majority of the job's hosts) and the --expect bounds;
// one verdict line per host, a JSON document (-J), metrics (--metrics) and an exit code
// (docs/health.md).
#pragma once

#include <string>
#include <vector>

#include "bench/cli/wiring/command_result.hpp"
#include "bench/cli/wiring/run_flags.hpp"

namespace CLI {
class App;
}

namespace collbench::cli {

struct RawHealthFlags {
  RawRunFlags run;
  std::string budget = "60";
  std::string topo_reference;
};

// The run flags with health's defaults (1 MiB to 64 MiB by 8), plus --budget and --topo-reference.
RawHealthFlags health_defaults();
void add_health_flags(CLI::App& app, RawHealthFlags& raw);

struct HealthCommand {
  RunCommand run;        // output_file is the health document; timeout_s is the budget unless -T
  double budget_s = 60;  // every step is watched with it; the sweep must fit in half of it
  std::string topo_reference;
};

Result<HealthCommand> resolve_health_flags(const RawHealthFlags& raw);

class SignalStop;

CommandResult health_command(const HealthCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals);

}  // namespace collbench::cli
