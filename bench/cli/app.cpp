#include "bench/cli/app.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "bench/cli/launch_env.hpp"
#include "bench/cli/preflight_command.hpp"
#include "bench/cli/run_command.hpp"
#include "bench/cli/signals.hpp"
#include "bench/cli/version.hpp"
#include "bench/cli/wiring.hpp"
#include "common/exit_code.hpp"
#include "common/file_io.hpp"
#include "report/json_schema.hpp"

namespace collbench::cli {
namespace {

int report_error(const Status& status, const std::string& who) {
  std::string line = "collbench: " + who + (who.empty() ? "" : ": ") + "error: " + status.message();
  const bool user_error = status.code() == ErrorCode::kUsage || status.code() == ErrorCode::kWrongData ||
                          status.code() == ErrorCode::kInterrupted;
  if (!user_error && !status.where().empty()) line += " [" + status.where() + "]";
  std::cerr << line << std::endl;
  return static_cast<int>(exit_code_for(status));
}

std::string footer() {
  return "\n" + exit_code_help() + "\nBuilt with " + compiled_features() + ".\nDocumentation: README.md, docs/.\n";
}

int validate_command(const std::vector<std::string>& files) {
  int worst = 0;
  for (const auto& file : files) {
    auto text = read_text_file(file);
    auto kind = text.ok() ? report::validate_document_json(*text) : Result<std::string>(text.status());
    if (kind.ok()) {
      std::cout << file << ": valid " << *kind << " document\n";
    } else {
      worst = std::max(worst, report_error(kind.status(), file));
    }
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything starts a thread (MPI does), so that every thread inherits the mask.
  SignalStop signals;
  const std::vector<std::string> args(argv, argv + argc);
  const bool speaker = read_launch_env().likely_rank() == 0;

  CLI::App app{"collbench " + version() + ": correctness-checked collective bandwidth benchmarks", "collbench"};
  app.footer(footer());
  app.set_version_flag("--version", "collbench " + version() + " (" + git_commit() + ")");
  app.require_subcommand(1);

  CLI::App* run = app.add_subcommand("run", "Sweep message sizes of one or more collectives, check every element, "
                                            "print the nccl-tests table and write JSON (-J)");
  run->footer(footer());
  RawRunFlags raw;
  add_run_flags(*run, raw);

  CLI::App* preflight = app.add_subcommand("preflight", "Prove the process group works: every rank all_reduces its "
                                                       "rank number and must receive N(N-1)/2; launch mistakes are named");
  preflight->footer(footer());
  RawPreflightFlags raw_preflight;
  add_preflight_flags(*preflight, raw_preflight);

  CLI::App* validate = app.add_subcommand("validate", "Check JSON files written by collbench against their schema");
  std::vector<std::string> files;
  validate->add_option("file", files, "JSON files written by collbench run/preflight -J")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (speaker) app.exit(e);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    if (speaker) app.exit(e);
    return 0;
  } catch (const CLI::ParseError& e) {
    const Status s = Status::error(ErrorCode::kUsage, e.what() + std::string(" (see collbench --help)"));
    return speaker ? report_error(s, "") : static_cast<int>(ExitCode::kUsage);
  }

  if (*validate) return validate_command(files);

  CommandResult result;
  if (*preflight) {
    auto cmd = resolve_preflight_flags(raw_preflight);
    if (!cmd.ok()) return speaker ? report_error(cmd.status(), "") : static_cast<int>(exit_code_for(cmd.status()));
    result = preflight_command(*cmd, args);
  } else {
    auto cmd = resolve_run_flags(raw);
    if (!cmd.ok()) return speaker ? report_error(cmd.status(), "") : static_cast<int>(exit_code_for(cmd.status()));
    result = run_command(*cmd, args, signals);
  }
  if (result.status.ok()) return 0;
  if (!result.printable) return static_cast<int>(exit_code_for(result.status));
  // A usage error is the same on every rank and only rank 0 prints it: no rank prefix.
  if (result.status.code() == ErrorCode::kUsage) return report_error(result.status, "");
  return report_error(result.status, "rank " + std::to_string(result.rank) + " on " + result.host);
}

}  // namespace collbench::cli
