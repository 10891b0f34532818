// Command-line inputs that name many files: files, folders (every *.json below them) and glob
// patterns the shell did not expand (quoted, or too many for a command line).
#pragma once

#include <string>
#include <vector>

#include "common/status.hpp"

namespace collbench::report {

// Each argument, in order: an existing file as is; a folder, its *.json files at any depth in
// name order; otherwise a glob(3) pattern, its matches in name order (folders among them
// expanded as above). A name appearing twice counts once. Usage errors: a path that does not
// exist and is no pattern, a pattern that matches nothing, a folder without any *.json file.
Result<std::vector<std::string>> expand_inputs(const std::vector<std::string>& arguments);

}  // namespace collbench::report
