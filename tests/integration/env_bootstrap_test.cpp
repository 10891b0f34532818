// The environment rendezvous with real processes and sockets on loopback: every rank is a
// forked child building the env bootstrap from torchrun-style variables.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <thread>

#include "bench/bootstrap/tcp/env_bootstrap.hpp"
#include "tests/integration/rank_processes.hpp"
#include "tests/unit/bootstrap/control_reductions.hpp"

namespace collbench::testing {
namespace {

using bootstrap::Bootstrap;
using bootstrap::EnvConfig;
using Vars = std::map<std::string, std::string, std::less<>>;

constexpr double kLimit = 60;  // hard bound of every multi-process test

EnvConfig config(int rank, int world, int port, double timeout_s, Vars vars = {}) {
  vars.emplace("RANK", std::to_string(rank));
  vars.emplace("WORLD_SIZE", std::to_string(world));
  vars.emplace("MASTER_ADDR", "127.0.0.1");
  vars.emplace("MASTER_PORT", std::to_string(port));
  const bootstrap::EnvLookup lookup = [&vars](std::string_view name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
  auto cfg = bootstrap::env_config_from(lookup, timeout_s, 0);
  if (!cfg.ok()) std::abort();
  return *cfg;
}

// Every bootstrap operation, checked against values each rank can compute alone.
int exchange_and_check(Bootstrap& boot, std::string& report) {
  const auto fail = [&](const std::string& what) {
    report = "rank " + std::to_string(boot.rank()) + ": " + what;
    return 1;
  };
  const int n = boot.size();
  const int r = boot.rank();
  const auto un = static_cast<std::size_t>(n);
  if (!boot.barrier().ok()) return fail("barrier");

  const std::uint64_t mine = 1000u + static_cast<std::uint64_t>(r);
  std::vector<std::uint64_t> all(un);
  if (!boot.allgather(std::as_bytes(std::span(&mine, 1)), std::as_writable_bytes(std::span(all))).ok()) {
    return fail("allgather");
  }
  for (std::size_t i = 0; i < un; ++i) {
    if (all[i] != 1000u + i) return fail("allgather slot " + std::to_string(i) + " = " + std::to_string(all[i]));
  }

  const int root = n - 1;
  std::vector<std::byte> data(100);
  if (r == root) {
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>(i * 7 + 1);
  }
  if (!boot.broadcast(data, root).ok()) return fail("broadcast");
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (data[i] != static_cast<std::byte>(i * 7 + 1)) return fail("broadcast byte " + std::to_string(i));
  }

  const double rd = r;
  std::vector<double> sum = {rd, 1.0, rd * rd};
  std::vector<double> min = {rd + 5};
  std::vector<double> max = {rd + 5};
  if (!boot.allreduce(sum, ReduceOp::kSum).ok() || !boot.allreduce(min, ReduceOp::kMin).ok() ||
      !boot.allreduce(max, ReduceOp::kMax).ok()) {
    return fail("allreduce");
  }
  const double nd = n;
  if (sum[0] != nd * (nd - 1) / 2 || sum[1] != nd || sum[2] != (nd - 1) * nd * (2 * nd - 1) / 6) {
    return fail("allreduce sum " + std::to_string(sum[0]));
  }
  if (min[0] != 5 || max[0] != nd + 4) return fail("allreduce min/max");
  if (const std::string wrong = check_control_reductions(boot); !wrong.empty()) return fail(wrong);

  auto names = bootstrap::allgather_strings(boot, std::string(static_cast<std::size_t>(r) + 1, 'x'));
  if (!names.ok() || names->size() != un || (*names)[un - 1].size() != un) return fail("allgather_strings");
  if (!boot.missing_ranks().empty()) return fail("missing_ranks() not empty between exchanges");
  return 0;
}

std::string code_name(ErrorCode code) { return std::string(error_code_name(code)) + ": "; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class EnvBootstrapSuccess : public ::testing::TestWithParam<int> {};

TEST_P(EnvBootstrapSuccess, EveryOperationGivesEveryRankTheSameAnswer) {
  const int world = GetParam();
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      world,
      [&](int rank, std::string& report) {
    const int fds_before = open_fd_count();
    {
      auto boot = bootstrap::make_env_bootstrap(config(rank, world, port, 20));
      if (!boot.ok()) return report_status(boot.status(), report);
      Bootstrap& b = **boot;
      if (b.name() != "env" || b.rank() != rank || b.size() != world) return (report = "identity"), 1;
      // One host, no LOCAL_RANK: computed from the host names exchanged at the rendezvous.
      if (b.local_rank() != rank || b.local_size() != world) {
        return (report = "local " + std::to_string(b.local_rank()) + "/" + std::to_string(b.local_size())), 1;
      }
      if (const int rc = exchange_and_check(b, report); rc != 0) return rc;
    }
    if (open_fd_count() != fds_before) {
      report = "descriptors: " + std::to_string(fds_before) + " before, " + std::to_string(open_fd_count()) + " after";
      return 1;
    }
    return 0;
      },
      kLimit);
  for (std::size_t r = 0; r < outcomes.size(); ++r)
    EXPECT_EQ(outcomes[r].exit_code, 0) << r << ": " << describe(outcomes[r]);
}

INSTANTIATE_TEST_SUITE_P(Ranks, EnvBootstrapSuccess, ::testing::Values(2, 3, 8));

TEST(EnvBootstrap, LauncherLocalRanksWinOverComputedOnes) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      2,
      [&](int rank, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(
        config(rank, 2, port, 20, {{"LOCAL_RANK", "0"}, {"LOCAL_WORLD_SIZE", "1"}}));
    if (!boot.ok()) return report_status(boot.status(), report);
    return (*boot)->local_rank() == 0 && (*boot)->local_size() == 1 ? 0 : 1;
      },
      kLimit);
  for (const auto& o : outcomes) EXPECT_EQ(o.exit_code, 0) << describe(o);
}

TEST(EnvBootstrap, RanksMayStartBeforeRankZero) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      3,
      [&](int rank, std::string& report) {
    if (rank == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    auto boot = bootstrap::make_env_bootstrap(config(rank, 3, port, 20));
    if (!boot.ok()) return report_status(boot.status(), report);
    return (*boot)->barrier().ok() ? 0 : 1;
      },
      kLimit);
  for (const auto& o : outcomes) EXPECT_EQ(o.exit_code, 0) << describe(o);
}

TEST(EnvBootstrap, StaggerSpreadsTheConnects) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      4,
      [&](int rank, std::string& report) {
    EnvConfig cfg = config(rank, 4, port, 20);
    cfg.stagger_ms = 800;
    const auto start = std::chrono::steady_clock::now();
    auto boot = bootstrap::make_env_bootstrap(cfg);
    if (!boot.ok()) return report_status(boot.status(), report);
    report = std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return 0;
      },
      kLimit);
  for (const auto& o : outcomes) ASSERT_EQ(o.exit_code, 0) << describe(o);
  // Rank 3 waits 3/4 of 800 ms before its first connect; rank 0 must wait for it.
  EXPECT_GE(std::stod(outcomes[3].report), 0.55);
  EXPECT_GE(std::stod(outcomes[0].report), 0.55);
}

TEST(EnvBootstrap, ReadsTheRealProcessEnvironment) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      2,
      [&](int rank, std::string& report) {
    setenv("RANK", std::to_string(rank).c_str(), 1);
    setenv("WORLD_SIZE", "2", 1);
    setenv("MASTER_ADDR", "localhost", 1);
    setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
    setenv("COLLBENCH_TOKEN", "test-token", 1);
    auto cfg = bootstrap::env_config_from_environment(20, 0);
    if (!cfg.ok()) return report_status(cfg.status(), report);
    auto boot = bootstrap::make_env_bootstrap(*cfg);
    if (!boot.ok()) return report_status(boot.status(), report);
    std::array<double, 1> v = {static_cast<double>(rank)};
    return (*boot)->allreduce(v, ReduceOp::kSum).ok() && v[0] == 1.0 ? 0 : 1;
      },
      kLimit);
  for (const auto& o : outcomes) EXPECT_EQ(o.exit_code, 0) << describe(o);
}

// A silent connection and one speaking another protocol, both open while the ranks arrive.
int stray_client(int port, std::string& report) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  std::vector<int> fds;
  for (int tries = 0; fds.size() < 2 && tries < 200; ++tries) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
      fds.push_back(fd);
    } else {
      close(fd);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  if (fds.size() < 2) return (report = "stray client could not connect"), 1;
  const char http[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  (void)send(fds[1], http, sizeof http - 1, MSG_NOSIGNAL);
  std::this_thread::sleep_for(std::chrono::seconds(4));
  for (const int fd : fds) close(fd);
  return 0;
}

TEST(EnvBootstrap, StrayConnectionsDoNotHoldUpTheRanks) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      4,
      [&](int index, std::string& report) {
    if (index == 3) return stray_client(port, report);
    if (index == 2) std::this_thread::sleep_for(std::chrono::milliseconds(800));  // after the strays
    auto boot = bootstrap::make_env_bootstrap(config(index, 3, port, 20));
    if (!boot.ok()) return report_status(boot.status(), report);
    if (!(*boot)->barrier().ok()) return (report = "barrier"), 1;
    report = "done";
    return 0;
      },
      kLimit);
  for (std::size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(outcomes[r].exit_code, 0) << describe(outcomes[r]);
    EXPECT_LT(outcomes[r].seconds, 3.5) << "a stray connection held up rank " << r;
  }
  EXPECT_EQ(outcomes[3].exit_code, 0) << describe(outcomes[3]);
}

// --- failures: each has its own plain message, code and time bound -------------------------

constexpr double kShort = 2.0;  // the configured timeout of the failure tests
constexpr double kSlack = 3.0;  // scheduling slack on a loaded two-core machine

TEST(EnvBootstrapFailure, WrongPortIsRefusedWithinTheTimeout) {
  const int port = free_tcp_port();  // nobody listens there
  const auto o = run_in_processes(
      1,
      [&](int, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(config(1, 2, port, kShort));
    return boot.ok() ? 0 : report_status(boot.status(), report);
      },
      kLimit)[0];
  EXPECT_EQ(o.exit_code, 8) << describe(o);
  EXPECT_TRUE(contains(o.report,
                       code_name(ErrorCode::kLaunch) + "connection to 127.0.0.1:" + std::to_string(port) + " refused"))
      << o.report;
  EXPECT_TRUE(contains(o.report, "is rank 0 running, and is MASTER_PORT right?")) << o.report;
  EXPECT_GE(o.seconds, kShort - 0.2);
  EXPECT_LT(o.seconds, kShort + kSlack);
}

TEST(EnvBootstrapFailure, ListenerThatNeverAnswersTimesOut) {
  // Accepted by the kernel (so connect succeeds) but never by a program: nothing ever answers.
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof addr;
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 16), 0);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length), 0);
  const int port = ntohs(addr.sin_port);
  const auto o = run_in_processes(
      1,
      [&](int, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(config(1, 2, port, kShort));
    return boot.ok() ? 0 : report_status(boot.status(), report);
      },
      kLimit)[0];
  close(fd);
  EXPECT_EQ(o.exit_code, 4) << describe(o);
  EXPECT_TRUE(contains(o.report, code_name(ErrorCode::kTimeout) + "no answer from 127.0.0.1:" + std::to_string(port) +
                                     " within 2 s"))
      << o.report;
  EXPECT_GE(o.seconds, kShort - 0.2);
  EXPECT_LT(o.seconds, kShort + kSlack);
}

TEST(EnvBootstrapFailure, UnresolvableMasterAddrIsNamed) {
  const auto o = run_in_processes(
      1,
      [&](int, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(config(1, 2, 29500, kShort, {{"MASTER_ADDR", "nohost.invalid"}}));
    return boot.ok() ? 0 : report_status(boot.status(), report);
      },
      kLimit)[0];
  EXPECT_TRUE(o.exit_code == 8 || o.exit_code == 4) << describe(o);  // 4 only if DNS itself is silent
  EXPECT_TRUE(contains(o.report, "MASTER_ADDR 'nohost.invalid' d")) << o.report;
  EXPECT_LT(o.seconds, kShort + kSlack);
}

TEST(EnvBootstrapFailure, MissingRankIsNamedByRankZeroAndHeardByTheOthers) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      2,
      [&](int rank, std::string& report) {  // rank 2 of 3 never starts
    auto boot = bootstrap::make_env_bootstrap(config(rank, 3, port, kShort));
    return boot.ok() ? 0 : report_status(boot.status(), report);
      },
      kLimit);
  for (const auto& o : outcomes) {
    EXPECT_EQ(o.exit_code, 4) << describe(o);
    EXPECT_TRUE(contains(o.report, "rank 2 did not join within 2 s (1 of 3 missing)")) << o.report;
    EXPECT_LT(o.seconds, kShort + kSlack);
  }
  EXPECT_TRUE(contains(outcomes[1].report, "rank 0 at 127.0.0.1:" + std::to_string(port) + " gave up"))
      << outcomes[1].report;
}

TEST(EnvBootstrapFailure, WrongTokenIsTurnedAwayAndSaidOnBothSides) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      2,
      [&](int rank, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(
        config(rank, 2, port, kShort, {{"COLLBENCH_TOKEN", rank == 0 ? "job-a" : "job-b"}}));
    return boot.ok() ? 0 : report_status(boot.status(), report);
      },
      kLimit);
  const auto& root = outcomes[0];
  const auto& stray = outcomes[1];
  EXPECT_EQ(stray.exit_code, 8) << describe(stray);
  EXPECT_TRUE(contains(stray.report, "turned this rank away: the job token differs")) << stray.report;
  EXPECT_LT(stray.seconds, kShort) << "a rejected rank learns it at once";
  EXPECT_EQ(root.exit_code, 8) << describe(root);
  EXPECT_TRUE(contains(root.report, "rank 1 did not join")) << root.report;
  EXPECT_TRUE(contains(root.report, "job token differs")) << root.report;
  EXPECT_LT(root.seconds, kShort + kSlack);
}

TEST(EnvBootstrapFailure, MismatchedWorldSizeIsTurnedAwayAndSaidOnBothSides) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      2,
      [&](int rank, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(config(rank, rank == 0 ? 2 : 3, port, kShort));
    return boot.ok() ? 0 : report_status(boot.status(), report);
      },
      kLimit);
  EXPECT_EQ(outcomes[1].exit_code, 8) << describe(outcomes[1]);
  EXPECT_TRUE(contains(outcomes[1].report, "rank 0 has WORLD_SIZE=2 but this rank has WORLD_SIZE=3"))
      << outcomes[1].report;
  EXPECT_EQ(outcomes[0].exit_code, 8) << describe(outcomes[0]);
  EXPECT_TRUE(contains(outcomes[0].report, "it has WORLD_SIZE=3, rank 0 has WORLD_SIZE=2")) << outcomes[0].report;
}

TEST(EnvBootstrapFailure, DuplicateRankIsTurnedAwayWhileTheJobGoesOn) {
  const int port = free_tcp_port();
  // Processes 0..3 claim ranks 0, 1, 2 and 1 again; the second rank 1 comes while rank 0 still
  // waits for rank 2.
  const auto outcomes = run_in_processes(
      4,
      [&](int index, std::string& report) {
    const int rank = index == 3 ? 1 : index;
    if (index >= 2) std::this_thread::sleep_for(std::chrono::milliseconds(index == 3 ? 300 : 1500));
    auto boot = bootstrap::make_env_bootstrap(config(rank, 3, port, 10));
    if (!boot.ok()) return report_status(boot.status(), report);
    return (*boot)->barrier().ok() ? 0 : 1;
      },
      kLimit);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(outcomes[i].exit_code, 0) << describe(outcomes[i]);
  EXPECT_EQ(outcomes[3].exit_code, 8) << describe(outcomes[3]);
  EXPECT_TRUE(contains(outcomes[3].report, "rank 1 already joined from host")) << outcomes[3].report;
  EXPECT_TRUE(contains(outcomes[3].report, "two processes were started with RANK=1")) << outcomes[3].report;
  EXPECT_LT(outcomes[3].seconds, 1.4) << "turned away at once, while rank 0 still waits for rank 2";
}

// --- after the rendezvous ---------------------------------------------------------------

TEST(EnvBootstrapAfterRendezvous, SilentRankIsNamedAndMissingRanksSeesIt) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      3,
      [&](int rank, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(config(rank, 3, port, kShort));
    if (!boot.ok()) return report_status(boot.status(), report);
    Bootstrap& b = **boot;
    if (!b.barrier().ok()) return (report = "first barrier"), 1;
    if (rank == 2) {
      std::this_thread::sleep_for(std::chrono::seconds(6));  // alive but silent, past the others' timeout
      return 0;
    }
    // A watchdog's view while this thread is blocked in the barrier.
    std::vector<int> seen;
    std::thread watchdog([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(700));
      seen = b.missing_ranks();
    });
    const Status status = b.barrier();
    watchdog.join();
    const std::vector<int> expected = rank == 0 ? std::vector<int>{2} : std::vector<int>{0};
    if (seen != expected) return (report = "missing_ranks() gave " + std::to_string(seen.size()) + " ranks"), 1;
    if (!b.barrier().ok() && status.code() == ErrorCode::kTimeout) {  // later calls fail at once too
      return report_status(status, report);
    }
    return (report = "second barrier did not fail as expected: " + status.message()), 1;
      },
      kLimit);
  for (int r = 0; r < 2; ++r) {
    const auto& o = outcomes[static_cast<std::size_t>(r)];
    EXPECT_EQ(o.exit_code, 4) << r << ": " << describe(o);
    EXPECT_TRUE(contains(o.report, "rank 2 (") &&
                contains(o.report, ") did not reach barrier #1 within 2 s (1 of 3 missing)"))
        << o.report;
  }
  EXPECT_TRUE(contains(outcomes[1].report, "rank 0 reports: ")) << outcomes[1].report;
}

TEST(EnvBootstrapAfterRendezvous, RankThatDiesIsNamedAtOnce) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      3,
      [&](int rank, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(config(rank, 3, port, 20));
    if (!boot.ok()) return report_status(boot.status(), report);
    if (!(*boot)->barrier().ok()) return (report = "first barrier"), 1;
    if (rank == 2) _exit(0);  // like SIGKILL: the kernel closes its sockets
    const auto start = std::chrono::steady_clock::now();
    const Status status = (*boot)->barrier();
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (took > 5) return (report = "took " + std::to_string(took) + " s"), 1;
    return status.ok() ? 0 : report_status(status, report);
      },
      kLimit);
  for (int r = 0; r < 2; ++r) {
    const auto& o = outcomes[static_cast<std::size_t>(r)];
    EXPECT_EQ(o.exit_code, 4) << describe(o);  // the barrier cannot finish: the timeout code
    EXPECT_TRUE(contains(o.report, "rank 2 (") && contains(o.report, ") closed its connection during barrier #1"))
        << o.report;
  }
}

TEST(EnvBootstrapAfterRendezvous, AbortReachesTheOthersWithItsExitCode) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      3,
      [&](int rank, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(config(rank, 3, port, 20));
    if (!boot.ok()) return report_status(boot.status(), report);
    if (rank == 1) (*boot)->abort(4);
    const Status status = (*boot)->barrier();
    return status.ok() ? 0 : report_status(status, report);
      },
      kLimit);
  EXPECT_EQ(outcomes[1].exit_code, 4);
  for (const int r : {0, 2}) {
    const auto& o = outcomes[static_cast<std::size_t>(r)];
    EXPECT_EQ(o.exit_code, 4) << describe(o);
    EXPECT_TRUE(contains(o.report, "rank 1 (") && contains(o.report, ") aborted the job (exit code 4)")) << o.report;
    EXPECT_LT(o.seconds, 10);
  }
}

TEST(EnvBootstrapAfterRendezvous, DifferentOperationsOnDifferentRanksAreCaught) {
  const int port = free_tcp_port();
  const auto outcomes = run_in_processes(
      2,
      [&](int rank, std::string& report) {
    auto boot = bootstrap::make_env_bootstrap(config(rank, 2, port, 20));
    if (!boot.ok()) return report_status(boot.status(), report);
    std::array<double, 2> v{};
    const Status status = rank == 0 ? (*boot)->barrier() : (*boot)->allreduce(v, ReduceOp::kSum);
    return status.ok() ? 0 : report_status(status, report);
      },
      kLimit);
  for (const auto& o : outcomes) {
    EXPECT_EQ(o.exit_code, 1) << describe(o);
    EXPECT_TRUE(contains(o.report, "is in allreduce #0 (16 bytes) while rank 0 is in barrier #0")) << o.report;
  }
}

}  // namespace
}  // namespace collbench::testing
