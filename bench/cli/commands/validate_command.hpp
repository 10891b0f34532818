// `collbench validate FILE...`: each JSON file written by collbench against its schema; one
// line per file, and the worst file's exit code.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace collbench::cli {

void add_validate_flags(CLI::App& app, std::vector<std::string>& files);

// Prints "FILE: valid KIND document" to `out` for each good file and an error line for each
// bad one; returns the exit code of the worst (0 when all are valid).
int validate_command(const std::vector<std::string>& files, std::ostream& out);

}  // namespace collbench::cli
