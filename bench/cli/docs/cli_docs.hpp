// The man page collbench(1) and the bash completion, written from the CLI's own definitions
// (the CLI11 App that parses the command line), so that neither can drift from the flags: the
// build runs the hidden modes `collbench --help-man` and `collbench --completion bash`, and
// installs what they print (cmake/CollbenchInstall.cmake).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace collbench::cli {

// roff for man(1): every subcommand with its usage, positionals and options, the nccl-tests
// drop-in names and the exit codes. `version` goes into the header line.
std::string man_page(CLI::App& app, std::string_view version);

// A bash script defining _collbench and registering it for collbench, collbench-cuda and the
// drop-in names: subcommands, then each subcommand's options; after an option that takes a
// value, and for positionals, bash's default (file name) completion.
std::string bash_completion(CLI::App& app);

// The hidden modes: nullopt when `args` asks for neither; otherwise the text to print, or a
// kUsage error for `--completion` of a shell other than bash.
std::optional<Result<std::string>> generated_document(CLI::App& app, const std::vector<std::string>& args,
                                                      std::string_view version);

// What the two generators list, shared by both: visible options (CLI11 hides those of the
// empty group) and every subcommand, in declaration order.
std::vector<const CLI::Option*> visible_options(const CLI::App& app);
std::vector<CLI::App*> subcommands_of(CLI::App& app);
// "-b", "--minbytes": every name of a non-positional option.
std::vector<std::string> option_names(const CLI::Option& option);
// Whether the option reads a value after it (a flag does not).
bool takes_value(const CLI::Option& option);

}  // namespace collbench::cli
