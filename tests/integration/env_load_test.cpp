// One rendezvous server and more than a thousand ranks connecting at the same moment, all on
// loopback: the listen backlog and rank 0's poll loop must take them all within the bound.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <mutex>
#include <thread>

#include "bench/bootstrap/tcp/env_bootstrap.hpp"
#include "tests/integration/rank_processes.hpp"

namespace collbench::testing {
namespace {

constexpr int kClients = 1024;
constexpr int kWorld = kClients + 1;
constexpr double kTimeout = 60;   // the rendezvous' own bound
constexpr double kExpected = 30;  // what the test demands
constexpr int kSkip = 77;

// Rank 0's descriptors (one per rank) plus every client's own: all in one process here.
constexpr rlim_t kNeeded = 2 * kWorld + 256;

bootstrap::EnvConfig config(int rank, int port) {
  bootstrap::EnvConfig cfg;
  cfg.rank = rank;
  cfg.world_size = kWorld;
  cfg.master_addr = "127.0.0.1";
  cfg.master_port = static_cast<std::uint16_t>(port);
  cfg.token = "load-test-token";
  cfg.timeout_s = kTimeout;
  return cfg;
}

int run_job(int port, std::string& report) {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < kNeeded) {
    limit.rlim_cur = kNeeded;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
      report = "cannot raise RLIMIT_NOFILE to " + std::to_string(kNeeded) + " (hard limit " +
               std::to_string(limit.rlim_max) + ")";
      return kSkip;
    }
  }
  std::atomic<int> failures{0};
  std::mutex first_mutex;
  std::string first_failure;
  const double expected_sum = static_cast<double>(kWorld) * (kWorld - 1) / 2;
  std::latch go(kWorld + 1);  // every rank starts its rendezvous at the same moment
  std::vector<std::thread> ranks;
  ranks.reserve(static_cast<std::size_t>(kWorld));
  for (int r = 0; r < kWorld; ++r) {
    ranks.emplace_back([&, r] {
      go.arrive_and_wait();
      std::string problem;
      auto boot = bootstrap::make_env_bootstrap(config(r, port));
      std::array<double, 1> sum = {static_cast<double>(r)};
      if (!boot.ok()) {
        problem = "rank " + std::to_string(r) + ": " + boot.status().message();
      } else if (const Status s = (*boot)->allreduce(sum, ReduceOp::kSum); !s.ok()) {
        problem = "rank " + std::to_string(r) + ": " + s.message();
      } else if (sum[0] != expected_sum) {
        problem = "rank " + std::to_string(r) + ": sum " + std::to_string(sum[0]);
      }
      if (problem.empty()) return;
      ++failures;
      const std::lock_guard lock(first_mutex);
      if (first_failure.empty()) first_failure = problem;
    });
  }
  const auto start = std::chrono::steady_clock::now();
  go.arrive_and_wait();
  for (auto& t : ranks) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report = std::to_string(seconds);
  if (failures > 0) {
    report = std::to_string(failures.load()) + " ranks failed, first: " + first_failure;
    return 1;
  }
  return 0;
}

TEST(EnvBootstrapLoad, ThousandRanksConnectingAtOnceAllJoin) {
  const int port = free_tcp_port();
  const auto o = run_in_processes(
      1, [&](int, std::string& report) { return run_job(port, report); }, 2 * kTimeout)[0];
  if (o.exit_code == kSkip) GTEST_SKIP() << o.report;
  ASSERT_EQ(o.exit_code, 0) << describe(o);
  const double seconds = std::stod(o.report);
  std::printf("rendezvous + allreduce of %d ranks on loopback: %.2f s\n", kWorld, seconds);
  EXPECT_LT(seconds, kExpected);
}

}  // namespace
}  // namespace collbench::testing
