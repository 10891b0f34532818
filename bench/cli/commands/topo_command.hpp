// `collbench topo`: how the GPUs, NICs, NUMA nodes and CPUs of this host (or of a topology
// file) are connected, which NIC and cores each GPU should use, and, over several hosts,
// which hosts differ from the others.
#pragma once

#include <string>
#include <vector>

#include "bench/cli/wiring/command_result.hpp"

namespace CLI {
class App;
}

namespace collbench::cli {

struct TopoCommand {
  std::vector<std::string> inputs;  // empty: this machine (every host under a launcher)
  std::string format = "text";      // text, json, dot, matrix
  std::string output;               // empty: stdout
  std::string svg;                  // render the dot picture here
  std::string bootstrap = "auto";
  bool force = false;
};

void add_topo_flags(CLI::App& app, TopoCommand& cmd);
Status check_topo_flags(const TopoCommand& cmd);
CommandResult topo_command(const TopoCommand& cmd);

}  // namespace collbench::cli
