// The identity of this build, for --version, reports and result files.
#pragma once

#include <string>

namespace collbench::cli {

std::string version();     // "0.1.0"
std::string git_commit();  // "abc123def456" or "abc123def456-dirty"

}  // namespace collbench::cli
