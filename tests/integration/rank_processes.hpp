// Runs test "ranks" as real forked processes, each with its own sockets, and collects how each
// ended. Every run has a hard time limit: ranks still running then are killed, so no test can
// hang the suite.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace collbench::testing {

struct RankOutcome {
  int exit_code = -1;      // -1 when killed by a signal or the time limit
  bool timed_out = false;  // killed at the time limit
  double seconds = 0;      // from the common start to this process's exit
  std::string report;      // what the process wrote to its report
};

// Runs in the child; returns its exit code and may describe what it saw in `report`.
using RankBody = std::function<int(int index, std::string& report)>;

// Forks `count` children at once, each running body(index), and waits for all of them.
std::vector<RankOutcome> run_in_processes(int count, const RankBody& body, double limit_s);

// Writes "<code name>: <message>" to `report` and returns the documented exit code.
int report_status(const Status& status, std::string& report);

// A TCP port on which nothing listens right now (bound to port 0 and released).
int free_tcp_port();

// Open descriptors of this process.
int open_fd_count();

// "exit 4 after 2.1 s: timeout: ..." for assertion messages.
std::string describe(const RankOutcome& outcome);

}  // namespace collbench::testing
