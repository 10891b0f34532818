#include "bench/cli/wiring/version.hpp"

#include "collbench_build_info.hpp"

namespace collbench::cli {

std::string version() { return COLLBENCH_VERSION; }
std::string git_commit() { return COLLBENCH_GIT_COMMIT; }

}  // namespace collbench::cli
