// The control reduction of the in-process bootstraps: single, and threads over single and
// over threads (the leader's combining, then the parent's).
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <thread>
#include <vector>

#include "bench/bootstrap/single.hpp"
#include "tests/unit/bootstrap/thread_members.hpp"
#include "bench/bootstrap/threads/threads_bootstrap.hpp"
#include "tests/unit/bootstrap/control_reductions.hpp"

namespace collbench::bootstrap {
namespace {

using testing::check_control_reductions;

using testing::run_members;

TEST(ControlReduction, SingleLeavesOneRanksValues) {
  SingleBootstrap single;
  EXPECT_EQ(check_control_reductions(single), "");
}

TEST(ControlReduction, ThreadsSumMultiplyAndTakeMinAndMax) {
  for (const int threads : {2, 3, 5}) {
    SingleBootstrap single;
    ThreadGroup group(single, threads);
    std::vector<std::string> wrong(static_cast<std::size_t>(threads));
    run_members(group, [&](Bootstrap& b) { wrong[static_cast<std::size_t>(b.rank())] = check_control_reductions(b); });
    for (const std::string& w : wrong) EXPECT_EQ(w, "") << threads << " threads";
  }
}

// Two "processes" of three threads: each leader combines its threads, then the outer group
// combines the leaders' partial results with the same op.
TEST(ControlReduction, ThreadsOverThreads) {
  constexpr int kProcesses = 2;
  constexpr int kThreads = 3;
  SingleBootstrap single;
  ThreadGroup processes(single, kProcesses);
  std::array<std::string, std::size_t{kProcesses} * kThreads> wrong;
  run_members(processes, [&](Bootstrap& process) {
    ThreadGroup group(process, kThreads);
    run_members(group, [&](Bootstrap& b) { wrong[static_cast<std::size_t>(b.rank())] = check_control_reductions(b); });
  });
  for (const std::string& w : wrong) EXPECT_EQ(w, "");
}

TEST(ControlReduction, ThreadsRefuseOpsWithoutAControlMeaning) {
  SingleBootstrap single;
  ThreadGroup group(single, 2);
  std::array<bool, 2> refused{};
  run_members(group, [&](Bootstrap& b) {
    std::array<double, 1> v = {1.0};
    refused[static_cast<std::size_t>(b.rank())] = !b.allreduce(v, ReduceOp::kPreMulSum).ok();
  });
  EXPECT_TRUE(refused[0]);
  EXPECT_TRUE(refused[1]);
}

}  // namespace
}  // namespace collbench::bootstrap
