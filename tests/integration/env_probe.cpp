// The classic first experiment on a new cluster, over the env bootstrap alone: every rank
// adds up the rank numbers and says whether it got N(N-1)/2. Used by the launcher-script tests.
//   collbench_env_probe [timeout_s]
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/bootstrap/tcp/env_bootstrap.hpp"
#include "common/exit_code.hpp"
#include "common/units.hpp"

int main(int argc, char** argv) {
  using namespace collbench;
  const double timeout_s = argc > 1 ? parse_double(argv[1]).value() : 10.0;
  auto cfg = bootstrap::env_config_from_environment(timeout_s, 0);
  if (!cfg.ok()) {
    std::fprintf(stderr, "env probe: %s\n", cfg.status().message().c_str());
    return static_cast<int>(exit_code_for(cfg.status()));
  }
  auto boot = bootstrap::make_env_bootstrap(*cfg);
  if (!boot.ok()) {
    std::fprintf(stderr, "env probe: rank %d: %s\n", cfg->rank, boot.status().message().c_str());
    return static_cast<int>(exit_code_for(boot.status()));
  }
  bootstrap::Bootstrap& b = **boot;
  std::array<double, 1> sum = {static_cast<double>(b.rank())};
  if (const Status s = b.allreduce(sum, ReduceOp::kSum); !s.ok()) {
    std::fprintf(stderr, "env probe: rank %d: %s\n", b.rank(), s.message().c_str());
    return static_cast<int>(exit_code_for(s));
  }
  const double expected = b.size() * (b.size() - 1) / 2.0;
  std::printf("rank %d of %d on %s (local %d of %d): sum of ranks = %g (expected %g) %s\n", b.rank(), b.size(),
              cfg->host.c_str(), b.local_rank(), b.local_size(), sum[0], expected, sum[0] == expected ? "OK" : "WRONG");
  return sum[0] == expected ? 0 : static_cast<int>(ExitCode::kWrongData);
}
