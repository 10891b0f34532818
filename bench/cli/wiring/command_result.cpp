#include "bench/cli/wiring/command_result.hpp"

#include "bench/cli/wiring/launch_env.hpp"

namespace collbench::cli {

CommandResult CommandResult::from_launcher(const std::string& host) {
  const LaunchEnv env = read_launch_env();
  CommandResult r;
  r.rank = env.likely_rank();
  r.nranks = env.likely_size();
  r.host = host;
  return r;
}

}  // namespace collbench::cli
