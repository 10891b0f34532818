// `collbench run`: wires bootstrap, backend, reporters and the engine for one sweep.
#pragma once

#include <stop_token>
#include <string>
#include <vector>

#include "bench/cli/run_flags.hpp"
#include "common/status.hpp"

namespace collbench::cli {

struct CommandResult {
  Status status;
  int rank = 0;          // this process's rank, once known
  std::string host;
  bool printable = true; // false on ranks that should stay quiet about a job-wide error
  int nranks = 1;        // errors of multi-rank jobs name the rank and host
  bool printed = false;  // already printed (speak_then_leave): the top level stays quiet

  // Before the job is formed: what the launcher's variables say.
  static CommandResult from_launcher(const std::string& host);
  // This process's identity with another outcome.
  CommandResult with(Status outcome, bool speaks = true) const {
    CommandResult r = *this;
    r.status = std::move(outcome);
    r.printable = speaks;
    return r;
  }
};

class SignalStop;

// `signals` turns SIGINT/SIGTERM into a stop request and an immediate save of the results.
CommandResult run_command(const RunCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals);

}  // namespace collbench::cli
