#include "bench/bootstrap/threads/threads_bootstrap.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <thread>

#include "bench/bootstrap/single.hpp"
#include "tests/unit/bootstrap/thread_members.hpp"

namespace collbench::bootstrap {
namespace {

using testing::run_members;

TEST(ThreadsBootstrap, RanksAndNamesOverOneProcess) {
  SingleBootstrap single;
  ThreadGroup group(single, 3);
  for (int t = 0; t < 3; ++t) {
    auto m = group.member(t);
    EXPECT_EQ(m->rank(), t);
    EXPECT_EQ(m->size(), 3);
    EXPECT_EQ(m->local_rank(), t);
    EXPECT_EQ(m->local_size(), 3);
    EXPECT_EQ(m->name(), "threads");
  }
}

TEST(ThreadsBootstrap, AllgatherBroadcastAllreduceAndBarrier) {
  constexpr int kThreads = 4;
  SingleBootstrap single;
  ThreadGroup group(single, kThreads);
  std::array<std::vector<int>, kThreads> gathered;
  std::array<std::string, kThreads> broadcast;
  std::array<std::array<double, 3>, kThreads> reduced{};
  std::array<std::vector<std::string>, kThreads> strings;
  std::atomic<int> failures{0};
  std::atomic<int> before_barrier{0};
  std::atomic<int> seen_after_barrier{0};

  run_members(group, [&](Bootstrap& b) {
    const auto r = static_cast<std::size_t>(b.rank());
    const int mine = 100 + b.rank();
    gathered[r].assign(kThreads, -1);
    if (!b.allgather(std::as_bytes(std::span(&mine, 1)), std::as_writable_bytes(std::span(gathered[r]))).ok())
      ++failures;

    std::string text = b.rank() == 2 ? "from-two" : "xxxxxxxx";
    if (!b.broadcast(std::as_writable_bytes(std::span(text.data(), text.size())), 2).ok()) ++failures;
    broadcast[r] = text;

    std::array<double, 3> v = {1.0, static_cast<double>(b.rank()), static_cast<double>(b.rank())};
    if (!b.allreduce(std::span(v.data(), 1), ReduceOp::kSum).ok()) ++failures;
    if (!b.allreduce(std::span(v.data() + 1, 1), ReduceOp::kMin).ok()) ++failures;
    if (!b.allreduce(std::span(v.data() + 2, 1), ReduceOp::kMax).ok()) ++failures;
    reduced[r] = v;

    auto s = allgather_strings(b, std::string(static_cast<std::size_t>(b.rank()) + 1, 'a'));
    if (s.ok()) strings[r] = *s;
    else ++failures;

    ++before_barrier;
    if (!b.barrier().ok()) ++failures;
    if (before_barrier.load() == kThreads) ++seen_after_barrier;
  });

  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(seen_after_barrier.load(), kThreads);  // nobody left the barrier early
  for (std::size_t r = 0; r < kThreads; ++r) {
    EXPECT_EQ(gathered[r], (std::vector<int>{100, 101, 102, 103}));
    EXPECT_EQ(broadcast[r], "from-two");
    EXPECT_EQ(reduced[r], (std::array<double, 3>{4.0, 0.0, 3.0}));
    EXPECT_EQ(strings[r], (std::vector<std::string>{"a", "aa", "aaa", "aaaa"}));
  }
}

// Two "processes" (members of an outer group) with three threads each: ranks are
// process x 3 + thread, and every exchange spans all six.
TEST(ThreadsBootstrap, ComposesOverAProcessLevelBootstrap) {
  constexpr int kProcesses = 2;
  constexpr int kThreads = 3;
  constexpr std::size_t kRanks = std::size_t{kProcesses} * kThreads;
  SingleBootstrap single;
  ThreadGroup processes(single, kProcesses);
  std::array<std::vector<int>, kRanks> gathered;
  std::array<double, kRanks> sums{};
  std::array<int, kRanks> local{};
  std::atomic<int> failures{0};

  run_members(processes, [&](Bootstrap& process) {
    ThreadGroup group(process, kThreads);
    EXPECT_EQ(group.member(0)->name(), "threads+threads");
    run_members(group, [&](Bootstrap& b) {
      const auto r = static_cast<std::size_t>(b.rank());
      EXPECT_EQ(b.size(), kProcesses * kThreads);
      local[r] = b.local_rank();
      const int mine = b.rank();
      gathered[r].assign(kRanks, -1);
      if (!b.allgather(std::as_bytes(std::span(&mine, 1)), std::as_writable_bytes(std::span(gathered[r]))).ok()) {
        ++failures;
      }
      std::array<double, 1> v = {static_cast<double>(b.rank())};
      if (!b.allreduce(v, ReduceOp::kSum).ok()) ++failures;
      sums[r] = v[0];
      int value = b.rank() == 4 ? 44 : 0;
      if (!b.broadcast(std::as_writable_bytes(std::span(&value, 1)), 4).ok() || value != 44) ++failures;
    });
  });

  EXPECT_EQ(failures.load(), 0);
  for (std::size_t r = 0; r < gathered.size(); ++r) {
    EXPECT_EQ(gathered[r], (std::vector<int>{0, 1, 2, 3, 4, 5})) << "rank " << r;
    EXPECT_EQ(sums[r], 15.0);
    EXPECT_EQ(local[r], static_cast<int>(r));  // both "processes" share one host here
  }
}

TEST(ThreadsBootstrap, AbandonWakesMembersWaitingInAnExchange) {
  SingleBootstrap single;
  ThreadGroup group(single, 3);
  std::array<Status, 3> results;
  {
    std::vector<std::jthread> waiting;
    waiting.reserve(2);
    for (int t = 0; t < 2; ++t) {
      waiting.emplace_back([&, t] { results[static_cast<std::size_t>(t)] = group.member(t)->barrier(); });
    }
    // Member 2 fails before it reaches the barrier.
    while (group.member(2)->missing_ranks() != std::vector<int>{2}) std::this_thread::yield();
    group.abandon(Status::error(ErrorCode::kComm, "cudaSetDevice failed"));
  }
  for (int t = 0; t < 2; ++t) {
    const Status& s = results[static_cast<std::size_t>(t)];
    EXPECT_EQ(s.code(), ErrorCode::kComm);
    EXPECT_NE(s.message().find("another rank of this process failed: cudaSetDevice failed"), std::string::npos);
  }
  EXPECT_FALSE(group.member(0)->barrier().ok());  // and every later exchange fails at once
}

TEST(ThreadsBootstrap, MembersThatPassDifferentSizesGetAnError) {
  SingleBootstrap single;
  ThreadGroup group(single, 2);
  std::array<Status, 2> results;
  run_members(group, [&](Bootstrap& b) {
    std::vector<double> v(static_cast<std::size_t>(b.rank()) + 1, 1.0);
    results[static_cast<std::size_t>(b.rank())] = b.allreduce(v, ReduceOp::kSum);
  });
  EXPECT_EQ(results[0].code(), ErrorCode::kInternal);
  EXPECT_EQ(results[1].code(), ErrorCode::kInternal);
}

}  // namespace
}  // namespace collbench::bootstrap
