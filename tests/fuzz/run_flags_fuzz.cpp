// collbench run's whole command line: the input is the argument list, NUL-separated, parsed by
// CLI11 exactly as bench/cli/app.cpp sets it up, resolved, and planned for a few rank counts.
// The first byte chooses between `collbench run` and a drop-in binary (all_reduce_perf).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "bench/cli/wiring/run_flags.hpp"
#include "bench/engine/sweep.hpp"
#include "common/strings.hpp"
#include "tests/fuzz/fuzz_entries.hpp"

namespace collbench::fuzz {
namespace {

// argv for CLI11: the program name, then each NUL-separated piece of the input.
std::vector<std::string> arguments(std::string_view text) {
  std::vector<std::string> args = {"collbench"};
  if (text.empty()) return args;
  for (std::string_view piece : split(text, '\0')) args.emplace_back(piece);
  return args;
}

// CLI11 throws for help, version and parse errors, which app.cpp reports as usage errors.
bool parse(CLI::App& app, std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.reserve(args.size());
  for (auto& a : args) argv.push_back(a.data());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    return false;
  }
  return true;
}

void check_plan(const cli::RunCommand& cmd) {
  const engine::RunOptions& o = cmd.run;
  COLLBENCH_FUZZ_REQUIRE(o.min_bytes <= o.max_bytes);
  COLLBENCH_FUZZ_REQUIRE(!o.collectives.empty() && !o.types.empty() && !o.ops.empty());
  // The watchdog turns timeout x iterations into a deadline (common/deadline.hpp).
  COLLBENCH_FUZZ_REQUIRE(cmd.timeout_s >= 0 && cmd.timeout_s <= 1e6);
  for (int nranks : {1, 3, 8}) {
    auto plan = engine::plan_sweep(o, nranks);
    if (!plan.ok()) continue;
    COLLBENCH_FUZZ_REQUIRE(!plan->rows.empty());
  }
}

}  // namespace

void run_flags(Bytes input) {
  if (input.empty()) return;
  const bool drop_in = (input[0] & 1u) != 0;
  std::vector<std::string> args = arguments(as_text(input.subspan(1)));
  CLI::App app{"fuzz", "collbench"};
  cli::RawRunFlags raw = drop_in ? cli::nccl_tests_defaults() : cli::RawRunFlags{};
  cli::add_run_flags(app, raw, /*with_positional=*/!drop_in);
  if (!parse(app, args)) return;
  if (drop_in) raw.collectives = {"all_reduce"};
  auto cmd = cli::resolve_run_flags(raw);
  if (cmd.ok()) check_plan(*cmd);
}

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(run_flags)
