// -g N: a command's ranks of this process, one thread each.
#pragma once

#include <functional>
#include <memory>

#include "bench/cli/wiring/command_result.hpp"
#include "bench/cli/wiring/session.hpp"

namespace collbench::cli {

// A command's ranks of this process: one on this thread, or `gpus_per_process` (-g) on as many
// threads, each with a session of its own. With threads, rank 0 of the process runs on this
// thread (the only one that talks to the process-level bootstrap, as MPI may require); a rank
// that fails stops every communicator of the process and wakes the others, and the result is
// the failure that came first, unless it stays quiet and another rank has something to print.
CommandResult run_ranks(const SessionChoices& choices, int gpus_per_process,
                        const std::function<CommandResult(Result<std::unique_ptr<Session>>)>& body);

}  // namespace collbench::cli
