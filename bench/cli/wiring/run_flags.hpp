// The flags of `collbench run` (nccl-tests' flag set plus collbench's own), parsed into the
// immutable options the engine and the wiring code consume.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/backend/backend_entry.hpp"
#include "bench/cli/wiring/nccl_tests_env.hpp"
#include "bench/engine/run_options.hpp"
#include "common/status.hpp"

namespace CLI {
class App;
}

namespace collbench::cli {

// What the command line says, as typed. Numbers stay strings until resolve_run_flags()
// parses them, so every error can name its flag and value.
struct RawRunFlags {
  std::vector<std::string> collectives;
  std::string min_bytes = "8";
  std::string max_bytes = "64M";
  std::string step_factor;
  std::string step_bytes;
  std::string iterations;  // empty: precision-driven (collbench run); "20" for the drop-ins
  std::string min_time = "0.05";
  std::string max_time = "0.5";
  std::string target_spread = "2%";
  std::string max_iterations = "100000";
  std::string warmup = "1";
  std::string check = "1";
  std::string datatype = "float";
  std::string op = "sum";
  std::string root = "0";
  std::string average = "1";
  std::string blocking = "0";
  std::string run_cycles = "1";
  std::string timeout = "0";
  std::string output_file;
  std::string metrics_file;
  std::string expect_file;
  std::string seed = "1";
  std::string threads = "1";
  std::string gpus = "1";
  std::string agg_iters = "1";
  std::string graph = "0";
  std::string register_buffers = "0";
  std::string fault;
  std::string bootstrap = "auto";
  std::string backend = "auto";
  std::string parallel_init = "0";
  std::string report_cputime = "0";
  std::string per_iter_timing = "0";
  std::string per_iter_skip = "0";
  std::string report_timestamps = "0";
  std::string stream_null = "0";
  std::string cta_policy;  // empty: NCCL's default
  std::string memory_report = "0";
  std::string unalign = "0";
  bool force = false;
  bool no_progress = false;
  bool bind = false;
  bool no_topology = false;
  bool malloc_keep = false;
  bool fixed_buffers = false;
  std::string stagger_ms = "0";
  // nccl-tests' own size stepping: -f 1 (or no -f) steps by -i bytes, 1M by default.
  bool nccl_tests_stepping = false;
  NcclTestsEnv env;  // NCCL_TESTS_* variables, read by the caller
};

// The flags as nccl-tests' binaries default them (`all_reduce_perf` and friends).
RawRunFlags nccl_tests_defaults();

struct RunCommand {
  engine::RunOptions run;
  double timeout_s = 0;      // 0: no watchdog
  std::string output_file;   // empty: no JSON
  std::string metrics_file;  // --metrics: Prometheus text, replaced atomically; empty: none
  std::string expect_file;   // --expect: expectations to check (docs/health.md); empty: none
  bool force = false;        // overwrite an existing output file
  std::string bootstrap = "auto";
  std::string backend = "auto";
  bool progress = true;
  bool bind = false;         // pin each rank to the CPUs next to its device
  bool topology = true;      // discover each host's topology and record it
  bool malloc_keep = false;  // keep large allocations in the heap instead of mapping them afresh
  std::uint32_t stagger_ms = 0;
  int gpus_per_process = 1;       // -g: ranks per process, one thread (and GPU) each
  backend::DeviceOptions device;  // -R, -x, -y, NCCL_TESTS_DEVICE
  // One line each, printed by rank 0 before the run: flags that were adjusted, as nccl-tests
  // does ("-G with -z 3: using -z 0").
  std::vector<std::string> warnings;
};

// `with_positional`: whether collectives may be named on the command line (not for the
// drop-in binaries, whose name says which collective they run).
void add_run_flags(CLI::App& app, RawRunFlags& raw, bool with_positional = true);
Result<RunCommand> resolve_run_flags(const RawRunFlags& raw);

// Valid --bootstrap and --backend values (shared by every multi-rank command).
Status check_session_choices(const std::string& bootstrap, const std::string& backend);
// -T/--timeout: seconds, 0 for none.
Result<double> parse_timeout(const std::string& text);
// --stagger-ms: milliseconds, at most an hour.
Result<std::uint32_t> parse_stagger(const std::string& text);

// "corrupt-rank=1,index=0" and friends; see `collbench run --help`.
Result<engine::FaultPlan> parse_fault(std::string_view spec);

}  // namespace collbench::cli
