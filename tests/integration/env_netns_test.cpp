// "Two hosts" made real: two network namespaces joined by a veth pair, each with its own
// address, routes and firewall. Needs root and iproute2; skipped with a message otherwise.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "bench/bootstrap/tcp/env_bootstrap.hpp"
#include "tests/integration/rank_processes.hpp"

namespace collbench::testing {
namespace {

using bootstrap::EnvConfig;

constexpr double kLimit = 60;
constexpr double kShort = 2.0;
constexpr double kSlack = 3.0;
constexpr int kPort = 29500;  // the namespaces are new: nothing else can hold it there

bool run_quietly(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()) == 0; }

bool has_tool(const std::string& name) { return run_quietly("command -v " + name); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class TwoHosts : public ::testing::Test {
 protected:
  static constexpr const char* kAddrA = "10.213.7.1";
  static constexpr const char* kAddrB = "10.213.7.2";

  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "network namespaces need root";
    if (!has_tool("ip")) GTEST_SKIP() << "'ip' (iproute2) is not installed";
    const std::string id = std::to_string(getpid());
    ns_a_ = "cbtest-" + id + "-a";
    ns_b_ = "cbtest-" + id + "-b";
    if (!run_quietly("ip netns add " + ns_a_))
      GTEST_SKIP() << "network namespaces are not permitted here (ip netns add failed)";
    created_ = true;
    const std::string va = "cbt" + id + "a";
    const std::string vb = "cbt" + id + "b";
    const bool wired = run_quietly("ip netns add " + ns_b_) &&
                       run_quietly("ip link add " + va + " type veth peer name " + vb) &&
                       run_quietly("ip link set " + va + " netns " + ns_a_) &&
                       run_quietly("ip link set " + vb + " netns " + ns_b_) &&
                       run_quietly("ip -n " + ns_a_ + " addr add " + kAddrA + "/24 dev " + va) &&
                       run_quietly("ip -n " + ns_b_ + " addr add " + kAddrB + "/24 dev " + vb) &&
                       run_quietly("ip -n " + ns_a_ + " link set " + va + " up") &&
                       run_quietly("ip -n " + ns_b_ + " link set " + vb + " up") &&
                       run_quietly("ip -n " + ns_a_ + " link set lo up") &&
                       run_quietly("ip -n " + ns_b_ + " link set lo up");
    if (!wired) GTEST_SKIP() << "could not build two namespaces joined by a veth pair here";
  }

  void TearDown() override {
    if (!created_) return;
    (void)run_quietly("ip netns del " + ns_a_);  // the veth pair goes with its namespaces
    (void)run_quietly("ip netns del " + ns_b_);
  }

  // In a child: moves this process into host A's or B's network.
  bool enter(bool host_a) const {
    const std::string path = "/run/netns/" + (host_a ? ns_a_ : ns_b_);
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    const bool ok = fd >= 0 && setns(fd, CLONE_NEWNET) == 0;
    if (fd >= 0) close(fd);
    return ok;
  }

  static EnvConfig config(int rank, int world, const std::string& host, const char* master = kAddrA,
                          double timeout_s = 20) {
    EnvConfig cfg;
    cfg.rank = rank;
    cfg.world_size = world;
    cfg.master_addr = master;
    cfg.master_port = kPort;
    cfg.token = "netns-test";
    cfg.host = host;  // namespaces share the UTS host name: name the "hosts" apart
    cfg.timeout_s = timeout_s;
    return cfg;
  }

  std::string ns_a_;
  std::string ns_b_;
  bool created_ = false;
};

TEST_F(TwoHosts, RanksOnTwoHostsMeetAndComputeTheirLocalRanks) {
  const auto outcomes = run_in_processes(
      4,
      [&](int rank, std::string& report) {
    const bool on_a = rank < 2;
    if (!enter(on_a)) return (report = "setns failed"), 1;
    auto boot = bootstrap::make_env_bootstrap(config(rank, 4, on_a ? "host-a" : "host-b"));
    if (!boot.ok()) return report_status(boot.status(), report);
    std::array<double, 1> sum = {static_cast<double>(rank)};
    if (const Status s = (*boot)->allreduce(sum, ReduceOp::kSum); !s.ok()) return report_status(s, report);
    report = std::to_string((*boot)->local_rank()) + "/" + std::to_string((*boot)->local_size()) + " sum " +
             std::to_string(static_cast<int>(sum[0]));
    return 0;
      },
      kLimit);
  const char* expected[] = {"0/2 sum 6", "1/2 sum 6", "0/2 sum 6", "1/2 sum 6"};
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(outcomes[r].exit_code, 0) << describe(outcomes[r]);
    EXPECT_EQ(outcomes[r].report, expected[r]) << r;
  }
}

TEST_F(TwoHosts, FirewallDroppingMasterPortIsATimeoutThatSaysSo) {
  std::string rule;
  if (has_tool("nft")) {
    rule = "ip netns exec " + ns_a_ + " nft 'add table inet cbtest; add chain inet cbtest input { type filter hook " +
           "input priority 0; policy accept; }; add rule inet cbtest input tcp dport " + std::to_string(kPort) +
           " drop'";
  } else if (has_tool("iptables")) {
    rule = "ip netns exec " + ns_a_ + " iptables -A INPUT -p tcp --dport " + std::to_string(kPort) + " -j DROP";
  } else {
    GTEST_SKIP() << "neither nft (Debian package nftables) nor iptables is installed";
  }
  ASSERT_TRUE(run_quietly(rule)) << rule;
  const auto outcomes = run_in_processes(
      2,
      [&](int rank, std::string& report) {
    if (!enter(rank == 0)) return (report = "setns failed"), 1;
    auto boot = bootstrap::make_env_bootstrap(config(rank, 2, rank == 0 ? "host-a" : "host-b", kAddrA, kShort));
    return boot.ok() ? 0 : report_status(boot.status(), report);
      },
      kLimit);
  const auto& rank1 = outcomes[1];
  EXPECT_EQ(rank1.exit_code, 4) << describe(rank1);
  EXPECT_TRUE(
      contains(rank1.report, "no answer from 10.213.7.1:29500 within 2 s: a firewall may be dropping MASTER_PORT"))
      << rank1.report;
  EXPECT_LT(rank1.seconds, kShort + kSlack);
  const auto& rank0 = outcomes[0];
  EXPECT_EQ(rank0.exit_code, 4) << describe(rank0);
  EXPECT_TRUE(
      contains(rank0.report, "rank 1 did not join within 2 s (1 of 2 missing); no rank connected to port 29500"))
      << rank0.report;
  EXPECT_LT(rank0.seconds, kShort + kSlack);
}

TEST_F(TwoHosts, AddressWithoutARouteIsUnreachable) {
  const auto o = run_in_processes(
      1,
      [&](int, std::string& report) {
    if (!enter(false)) return (report = "setns failed"), 1;
    auto boot = bootstrap::make_env_bootstrap(config(1, 2, "host-b", "10.99.0.1", kShort));
    return boot.ok() ? 0 : report_status(boot.status(), report);
      },
      kLimit)[0];
  EXPECT_EQ(o.exit_code, 8) << describe(o);
  EXPECT_TRUE(contains(o.report, "10.99.0.1:29500 is unreachable (Network is unreachable): check MASTER_ADDR"))
      << o.report;
  EXPECT_LT(o.seconds, kShort + kSlack);
}

}  // namespace
}  // namespace collbench::testing
