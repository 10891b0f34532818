// `collbench preflight`: does the process group work at all? Checks the launch, all_reduces
// every rank's number, and says what is wrong and where.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/cli/wiring/command_result.hpp"
#include "bench/cli/wiring/session.hpp"
#include "bench/engine/preflight.hpp"

namespace CLI {
class App;
}

namespace collbench::cli {

struct RawPreflightFlags {
  std::string bootstrap = "auto";
  std::string backend = "auto";
  std::string timeout = "60";
  std::string output_file;
  bool force = false;
  std::string fault;
  std::string stagger_ms = "0";
};

struct PreflightCommand {
  SessionChoices session;
  std::string output_file;
  bool force = false;
  std::optional<int> corrupt_rank;
};

void add_preflight_flags(CLI::App& app, RawPreflightFlags& raw);
Result<PreflightCommand> resolve_preflight_flags(const RawPreflightFlags& raw);
CommandResult preflight_command(const PreflightCommand& cmd, const std::vector<std::string>& argv);

}  // namespace collbench::cli
