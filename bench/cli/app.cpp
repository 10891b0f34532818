#include "bench/cli/app.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/cli/commands/compare_command.hpp"
#include "bench/cli/commands/health_command.hpp"
#include "bench/cli/commands/history_command.hpp"
#include "bench/cli/commands/locate_command.hpp"
#include "bench/cli/commands/preflight_command.hpp"
#include "bench/cli/commands/report_command.hpp"
#include "bench/cli/commands/run_command.hpp"
#include "bench/cli/commands/topo_command.hpp"
#include "bench/cli/commands/validate_command.hpp"
#include "bench/cli/docs/cli_docs.hpp"
#include "bench/cli/wiring/adapter_registry.hpp"
#include "bench/cli/wiring/error_line.hpp"
#include "bench/cli/wiring/launch_env.hpp"
#include "bench/cli/wiring/signals.hpp"
#include "bench/cli/wiring/version.hpp"
#include "bench/coll/collective.hpp"
#include "common/exit_code.hpp"

namespace collbench::cli {
namespace {

// Errors found before the job is formed are the same on every rank: only one rank speaks.
int early_error(const Status& status, bool speaker) {
  return speaker ? report_error(status, "") : static_cast<int>(exit_code_for(status));
}

int finish(const CommandResult& result) { return print_result(result); }

std::string footer() {
  return "\n" + exit_code_help() + "\nBuilt with " + compiled_features() + ".\nDocumentation: README.md, docs/.\n";
}

// A subcommand with the common footer; add_flags declares its options.
template <typename AddFlags>
CLI::App* add_command(CLI::App& app, const char* name, const char* description, AddFlags add_flags) {
  CLI::App* sub = app.add_subcommand(name, description);
  sub->footer(footer());
  add_flags(*sub);
  return sub;
}

// Parses; on --help, --version or a parse error returns the exit code to end with.
std::optional<int> parse(CLI::App& app, int argc, char** argv, bool speaker) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (speaker) app.exit(e);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    if (speaker) app.exit(e);
    return 0;
  } catch (const CLI::ParseError& e) {
    return early_error(Status::error(ErrorCode::kUsage, e.what() + std::string(" (see --help)")), speaker);
  }
  return std::nullopt;
}

// "all_gather_perf" (or a path ending in it) names the collective of an nccl-tests binary.
std::optional<std::string> drop_in_collective(const std::string& argv0) {
  const std::string name = argv0.substr(argv0.find_last_of('/') + 1);
  const std::string suffix = "_perf";
  if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return std::nullopt;
  }
  const std::string collective = name.substr(0, name.size() - suffix.size());
  if (!coll::parse_collective(collective).ok()) return std::nullopt;
  return collective;
}

// all_reduce_perf and friends: nccl-tests' flags and defaults, collbench's checks and JSON.
int drop_in_main(const std::string& collective, int argc, char** argv, SignalStop& signals, bool speaker) {
  const std::string name = collective + "_perf";
  CLI::App app{name + " (collbench " + version() + "): nccl-tests-compatible " + collective +
                   " benchmark with every element checked",
               name};
  app.footer(footer());
  app.set_version_flag("--version", [] { return version_text("collbench " + version() + " (" + git_commit() + ")"); });
  RawRunFlags raw = nccl_tests_defaults();
  raw.env = read_nccl_tests_env();
  add_run_flags(app, raw, /*with_positional=*/false);
  if (auto done = parse(app, argc, argv, speaker)) return *done;
  raw.collectives = {collective};
  // nccl-tests' -J writes nccl-tests' JSON: pipelines built on the binaries read that.
  if (!raw.output_file.empty() && !raw.nccl_tests_json_file.empty()) {
    return early_error(Status::error(ErrorCode::kUsage, "-J writes nccl-tests' JSON in " + name +
                                                            "; --nccl-tests-json is for collbench run"),
                       speaker);
  }
  if (raw.nccl_tests_json_file.empty()) std::swap(raw.output_file, raw.nccl_tests_json_file);
  auto cmd = resolve_run_flags(raw);
  if (!cmd.ok()) return early_error(cmd.status(), speaker);
  cmd->drop_in = true;
  return finish(run_command(*cmd, std::vector<std::string>(argv, argv + argc), signals));
}

int dispatch(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();  // locate's budget counts from here
  // Before anything starts a thread (MPI does), so that every thread inherits the mask.
  SignalStop signals;
  const std::vector<std::string> args(argv, argv + argc);
  const bool speaker = read_launch_env().likely_rank() == 0;
  if (auto collective = drop_in_collective(args.front()))
    return drop_in_main(*collective, argc, argv, signals, speaker);

  CLI::App app{"collbench " + version() + ": correctness-checked collective bandwidth benchmarks", "collbench"};
  app.footer(footer());
  app.set_version_flag("--version", [] { return version_text("collbench " + version() + " (" + git_commit() + ")"); });
  app.require_subcommand(1);

  RawRunFlags raw;
  raw.env = read_nccl_tests_env();
  // run is what remains when no other subcommand was given.
  add_command(app, "run",
              "Sweep message sizes of one or more collectives, check every element, "
              "print the nccl-tests table and write JSON (-J)",
              [&](CLI::App& c) { add_run_flags(c, raw); });
  RawPreflightFlags raw_preflight;
  CLI::App* preflight = add_command(app, "preflight",
                                    "Prove the process group works: every rank all_reduces its rank "
                                    "number and must receive N(N-1)/2; launch mistakes are named",
                                    [&](CLI::App& c) { add_preflight_flags(c, raw_preflight); });
  TopoCommand topo_cmd;
  CLI::App* topo = add_command(app, "topo",
                               "Map GPUs, NICs, NUMA nodes and CPUs: nvidia-smi style matrix, nearest "
                               "NIC and cores per GPU, binding advice; under a launcher, compare hosts",
                               [&](CLI::App& c) { add_topo_flags(c, topo_cmd); });
  RawHealthFlags raw_health = health_defaults();
  raw_health.run.env = raw.env;
  CLI::App* health = add_command(app, "health",
                                 "Node acceptance and health: preflight, a short checked sweep, topology "
                                 "against a reference and --expect, within --budget; a verdict per "
                                 "host and an exit code",
                                 [&](CLI::App& c) { add_health_flags(c, raw_health); });
  RawLocateFlags raw_locate;
  CLI::App* locate = add_command(app, "locate",
                                 "Find the slow host, rank (GPU/NIC), pair or rail within a time budget: "
                                 "straggler timing, round-robin pairs, split groups; exit 12 when found",
                                 [&](CLI::App& c) { add_locate_flags(c, raw_locate); });

  std::vector<std::string> files;
  CLI::App* validate = app.add_subcommand("validate", "Check JSON files written by collbench against their schema");
  add_validate_flags(*validate, files);

  RawCompareFlags raw_compare;
  CLI::App* compare = add_command(app, "compare",
                                  "Compare two run files point by point (exit 10 when NEW regressed "
                                  "beyond noise), or rank several with --nodes",
                                  [&](CLI::App& c) { add_compare_flags(c, raw_compare); });
  RawReportFlags raw_report;
  CLI::App* report = add_command(app, "report",
                                 "Turn run files into one self-contained HTML page (-o), an SVG chart, "
                                 "CSV or Google Benchmark JSON",
                                 [&](CLI::App& c) { add_report_flags(c, raw_report); });

  RawHistoryFlags raw_history;
  CLI::App* history = add_command(app, "history",
                                  "Many runs over time: a series per system and point, change points "
                                  "(E-Divisive means), context changes; exit 10 when the newest run regressed",
                                  [&](CLI::App& c) { add_history_flags(c, raw_history); });

  // Hidden modes for the build: the man page and the completion, from the App declared above.
  if (auto doc = generated_document(app, args, version())) {
    if (!doc->ok()) return early_error(doc->status(), speaker);
    std::cout << **doc;
    return 0;
  }
  if (auto done = parse(app, argc, argv, speaker)) return *done;
  if (*validate) return validate_command(files, std::cout);
  if (*topo) {
    if (Status s = check_topo_flags(topo_cmd); !s.ok()) return early_error(s, speaker);
    return finish(topo_command(topo_cmd));
  }
  if (*compare || *report || *history) {
    const std::string generator = "collbench " + version() + " (" + git_commit() + ")";
    const Status s = *compare  ? compare_command(raw_compare, std::cout)
                     : *report ? report_command(raw_report, generator, std::cout)
                               : history_command(raw_history, generator, std::cout);
    return s.ok() ? 0 : report_error(s, "");
  }
  if (*locate) {
    auto cmd = resolve_locate_flags(raw_locate);
    if (!cmd.ok()) return early_error(cmd.status(), speaker);
    return finish(locate_command(*cmd, args, signals, start));
  }
  if (*health) {
    auto cmd = resolve_health_flags(raw_health);
    if (!cmd.ok()) return early_error(cmd.status(), speaker);
    return finish(health_command(*cmd, args, signals));
  }
  if (*preflight) {
    auto cmd = resolve_preflight_flags(raw_preflight);
    if (!cmd.ok()) return early_error(cmd.status(), speaker);
    return finish(preflight_command(*cmd, args));
  }
  auto cmd = resolve_run_flags(raw);
  if (!cmd.ok()) return early_error(cmd.status(), speaker);
  return finish(run_command(*cmd, args, signals));
}

}  // namespace

// Errors are values everywhere below, but the standard library still throws (out of memory, a
// thread that cannot start): such a run ends with the internal-error exit code and a message,
// not with std::terminate's abort and no word of why.
int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "collbench: internal error: " << e.what() << std::endl;
  } catch (...) {
    std::cerr << "collbench: internal error: an unknown exception" << std::endl;
  }
  return static_cast<int>(ExitCode::kInternal);
}

}  // namespace collbench::cli
