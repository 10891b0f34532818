#include "bench/cli/commands/validate_command.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>

#include "bench/cli/wiring/error_line.hpp"
#include "common/file_io.hpp"
#include "report/documents/json_schema.hpp"

namespace collbench::cli {

void add_validate_flags(CLI::App& app, std::vector<std::string>& files) {
  app.add_option("file", files, "JSON files written by collbench run/preflight/locate -J")->required();
}

int validate_command(const std::vector<std::string>& files, std::ostream& out) {
  int worst = 0;
  for (const auto& file : files) {
    auto text = read_text_file(file);
    auto kind = text.ok() ? report::validate_document_json(*text) : Result<std::string>(text.status());
    if (kind.ok()) {
      out << file << ": valid " << *kind << " document\n";
    } else {
      worst = std::max(worst, report_error(kind.status(), file));
    }
  }
  return worst;
}

}  // namespace collbench::cli
