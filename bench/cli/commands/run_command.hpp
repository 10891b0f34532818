// `collbench run`: wires bootstrap, backend, reporters and the engine for one sweep.
#pragma once

#include <stop_token>
#include <string>
#include <vector>

#include "bench/cli/wiring/command_result.hpp"
#include "bench/cli/wiring/run_flags.hpp"
#include "common/status.hpp"

namespace collbench::cli {

class SignalStop;

// `signals` turns SIGINT/SIGTERM into a stop request and an immediate save of the results.
CommandResult run_command(const RunCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals);

}  // namespace collbench::cli
