// What a command returns to the top level: its outcome and who this process is in the job, so
// that the top level prints one line (naming the rank and host of a multi-rank job) and picks
// the exit code. Every command and the wiring that runs a command's ranks speak it.
#pragma once

#include <string>
#include <utility>

#include "common/status.hpp"

namespace collbench::cli {

struct CommandResult {
  Status status;
  int rank = 0;  // this process's rank, once known
  std::string host;
  bool printable = true;  // false on ranks that should stay quiet about a job-wide error
  int nranks = 1;         // errors of multi-rank jobs name the rank and host
  bool printed = false;   // already printed (speak_then_leave): the top level stays quiet

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

}  // namespace collbench::cli
