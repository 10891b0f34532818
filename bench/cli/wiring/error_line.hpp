// The one line an error or a failed verdict prints on stderr, and the job-wide verdict's exit:
// rank 0 speaks before any rank leaves.
#pragma once

#include <string>

#include "bench/bootstrap/bootstrap.hpp"
#include "bench/cli/wiring/command_result.hpp"
#include "common/status.hpp"

namespace collbench::cli {

// Prints "collbench: WHO: error: message" (or "regression:") and returns the exit code.
int report_error(const Status& status, const std::string& who);

// Prints a command's result as the top level does: nothing when ok or not printable; no rank
// prefix for usage errors and one-rank jobs. Returns the exit code.
int print_result(const CommandResult& result);

// A verdict every rank of the job returns (wrong data, a missed expectation, a failed health
// check): rank 0 prints its line now, then every rank waits for the others. A launcher ends the
// whole job as soon as one rank exits with an error, which could otherwise cut rank 0 off
// before it has said why. Every rank of the job must call it.
CommandResult speak_then_leave(bootstrap::Bootstrap& boot, CommandResult result);

}  // namespace collbench::cli
