// `collbench locate`: find the slow host, rank, pair or rail within a time budget
// (docs/locate.md). Wires the session, the rank table and topology to the locate engine and
// prints its verdict; exit code 12 when something was named.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "bench/cli/wiring/command_result.hpp"
#include "bench/cli/wiring/session.hpp"
#include "bench/engine/run_options.hpp"
#include "topo/fabric.hpp"

namespace CLI {
class App;
}

namespace collbench::cli {

struct RawLocateFlags {
  std::string budget = "60";
  std::string min_bytes = "4K";
  std::string max_bytes;  // empty: 8M on host memory, 256M on device memory
  std::string bootstrap = "auto";
  std::string backend = "auto";
  std::string timeout = "60";
  std::string output_file;
  bool force = false;
  bool no_progress = false;
  bool no_topology = false;
  std::string fabric;
  std::string simulate;
  std::string fault;
};

struct LocateCommand {
  SessionChoices session;
  double budget_s = 60;
  std::uint64_t min_bytes = 4096;
  std::uint64_t max_bytes = 0;  // 0: chosen by the backend's memory kind
  std::string output_file;
  bool force = false;
  bool progress = true;
  bool topology = true;
  std::string fabric_file;    // empty: no fabric, every host in one flat group (read by agree_fabric)
  std::string simulate_file;  // a simulation model: no job, every rank simulated (docs/locate.md)
  engine::FaultPlan fault;
};

void add_locate_flags(CLI::App& app, RawLocateFlags& raw);
// --fabric is not read here: agree_fabric reads it once the ranks can agree on it.

Result<LocateCommand> resolve_locate_flags(const RawLocateFlags& raw);
class SignalStop;

// The --fabric file, read by rank 0 and shared, so that every rank places the hosts under the
// same switches (a file that differs between hosts, or exists on one only, would have the ranks
// take different steps) and the file need exist on rank 0's host only. Empty `path`: no fabric.
// A missing, unreadable or malformed file is a usage error of one line on every rank.
Result<topo::Fabric> agree_fabric(bootstrap::Bootstrap& boot, const std::string& path);

// `start`: when the command began; the budget counts from there.
CommandResult locate_command(const LocateCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals,
                             std::chrono::steady_clock::time_point start);

}  // namespace collbench::cli
