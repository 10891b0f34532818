#include "bench/cli/docs/cli_docs.hpp"

namespace collbench::cli {

std::vector<const CLI::Option*> visible_options(const CLI::App& app) {
  return app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); });
}

std::vector<CLI::App*> subcommands_of(CLI::App& app) {
  return app.get_subcommands([](CLI::App*) { return true; });
}

std::vector<std::string> option_names(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const auto& s : option.get_snames()) names.push_back("-" + s);
  for (const auto& l : option.get_lnames()) names.push_back("--" + l);
  return names;
}

bool takes_value(const CLI::Option& option) { return option.get_expected_max() != 0; }

std::optional<Result<std::string>> generated_document(CLI::App& app, const std::vector<std::string>& args,
                                                      std::string_view version) {
  if (args.size() == 2 && args[1] == "--help-man") return Result<std::string>(man_page(app, version));
  if (args.size() < 2 || args[1] != "--completion") return std::nullopt;
  if (args.size() == 3 && args[2] == "bash") return Result<std::string>(bash_completion(app));
  return Result<std::string>(Status::error(ErrorCode::kUsage, "--completion: only bash is generated"));
}

}  // namespace collbench::cli
