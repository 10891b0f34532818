// -g N: a command's ranks of this process, one thread each.
#pragma once

#include <functional>
#include <memory>

#include "bench/cli/run_command.hpp"
#include "bench/cli/session.hpp"

namespace collbench::cli {

// Runs `body` for each rank of the group, rank 0 of the process on this thread (the only one
// that talks to the process-level bootstrap, as MPI may require). A rank that fails stops every
// communicator of the process and wakes the others; the result is the failure that came first,
// unless it stays quiet and another rank has something to print.
CommandResult run_threads(ThreadedSessions& group,
                          const std::function<CommandResult(Result<std::unique_ptr<Session>>)>& body);

}  // namespace collbench::cli
