#include "bench/engine/timing.hpp"

#include <gtest/gtest.h>

#include "bench/backend/host_memory.hpp"
#include "bench/bootstrap/single.hpp"

namespace collbench::engine {
namespace {

// Counts what the timed loop asks of a backend; launches do nothing.
class RecordingBackend final : public backend::HostMemoryBackend {
 public:
  explicit RecordingBackend(backend::LaunchFeatures features) : features_(features) {}

  backend::BackendInfo info() const override { return {"recording", "test", "host"}; }
  backend::DeviceInfo device() const override { return {}; }
  std::optional<std::string> unsupported(coll::Collective, DataType, ReduceOp, int) const override { return {}; }
  backend::LaunchFeatures features() const override { return features_; }

  Status launch(const backend::Call&) override {
    ++(capturing ? captured_launches : launches);
    return fail_launch ? Status::error(ErrorCode::kComm, "launch failed") : ok_status();
  }
  Status launch_group(const backend::Call& call, std::uint64_t count) override {
    ++(capturing ? captured_groups : groups);
    group_sizes.push_back(count);
    for (std::uint64_t i = 0; i < count; ++i) COLLBENCH_RETURN_IF_ERROR(launch(call));
    return ok_status();
  }
  Status begin_capture() override {
    capturing = true;
    ++captures;
    return ok_status();
  }
  Status end_capture() override {
    capturing = false;
    ++ended;
    return ok_status();
  }
  Status replay() override {
    ++replays;
    return ok_status();
  }
  Status synchronize() override {
    ++syncs;
    return ok_status();
  }

  bool capturing = false;
  bool fail_launch = false;
  int launches = 0, groups = 0, captured_launches = 0, captured_groups = 0;
  int captures = 0, ended = 0, replays = 0, syncs = 0;
  std::vector<std::uint64_t> group_sizes;

 private:
  backend::LaunchFeatures features_;
};

RunOptions options(std::uint64_t iterations, std::uint64_t aggregation, std::uint64_t graph_launches) {
  RunOptions o;
  o.iterations = iterations;
  o.aggregation = aggregation;
  o.graph_launches = graph_launches;
  o.warmup_iterations = 2;
  return o;
}

const backend::Call kCall{};

TEST(TimeLoop, OneLaunchPerIterationByDefault) {
  RecordingBackend b({});
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  ASSERT_TRUE(time_loop(b, boot, kCall, options(7, 1, 0), 7, 0, nullptr, t).ok());
  EXPECT_EQ(b.launches, 7);
  EXPECT_EQ(b.groups, 0);
  EXPECT_EQ(b.syncs, 1);  // one synchronization, after the last launch
  EXPECT_EQ(t.operations, 7u);
  EXPECT_EQ(t.iteration_us.size(), 7u);
  EXPECT_GE(t.elapsed_us, 0.0);
}

TEST(TimeLoop, AggregationGroupsOperationsAndCountsEveryOne) {
  RecordingBackend b({true, false});
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  ASSERT_TRUE(time_loop(b, boot, kCall, options(5, 4, 0), 5, 0, nullptr, t).ok());
  EXPECT_EQ(b.groups, 5);
  EXPECT_EQ(b.launches, 20);
  EXPECT_EQ(b.group_sizes, std::vector<std::uint64_t>(5, 4));
  EXPECT_EQ(t.operations, 20u);  // the per-operation time is elapsed / (iterations x m)
  EXPECT_EQ(t.iteration_us.size(), 5u);
}

TEST(TimeLoop, BlockingModesSynchronizeEveryIteration) {
  RecordingBackend b({true, false});
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  RunOptions o = options(3, 2, 0);
  o.blocking = 2;
  ASSERT_TRUE(time_loop(b, boot, kCall, o, o.iterations, 0, nullptr, t).ok());
  EXPECT_EQ(b.syncs, 4);
  EXPECT_EQ(t.operations, 6u);
}

TEST(TimeLoop, GraphsCaptureOnceAndTimeOnlyTheReplays) {
  RecordingBackend b({true, true});
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  ASSERT_TRUE(time_loop(b, boot, kCall, options(5, 2, 3), 5, 0, nullptr, t).ok());
  EXPECT_EQ(b.captures, 1);
  EXPECT_EQ(b.ended, 1);
  EXPECT_EQ(b.captured_groups, 5);
  EXPECT_EQ(b.captured_launches, 10);
  EXPECT_EQ(b.launches, 0);  // nothing ran outside the capture
  EXPECT_EQ(b.replays, 3);
  EXPECT_EQ(b.syncs, 1);
  EXPECT_EQ(t.operations, 30u);  // elapsed / (iterations x m x G)
  EXPECT_EQ(t.iteration_us.size(), 3u);  // one sample per replay
}

TEST(TimeLoop, AFailedLaunchStillEndsTheCapture) {
  RecordingBackend b({false, true});
  b.fail_launch = true;
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  const Status s = time_loop(b, boot, kCall, options(4, 1, 2), 4, 0, nullptr, t);
  EXPECT_EQ(s.code(), ErrorCode::kComm);
  EXPECT_EQ(b.ended, 1);
  EXPECT_FALSE(b.capturing);
  EXPECT_EQ(b.replays, 0);
}

TEST(WarmUp, UsesTheSameGroupsAsTheTimedLoop) {
  RecordingBackend b({true, false});
  ASSERT_TRUE(warm_up(b, kCall, options(1, 3, 0)).ok());
  EXPECT_EQ(b.groups, 2);
  EXPECT_EQ(b.launches, 6);
}

TEST(CheckLaunchModes, RefusesWhatTheBackendCannotDo) {
  RecordingBackend plain({});
  EXPECT_TRUE(check_launch_modes(options(1, 1, 0), plain).ok());
  const Status m = check_launch_modes(options(1, 4, 0), plain);
  EXPECT_EQ(m.code(), ErrorCode::kUnsupported);
  EXPECT_NE(m.message().find("-m/--agg_iters 4: the recording backend cannot group"), std::string::npos) << m.message();
  const Status g = check_launch_modes(options(1, 1, 5), plain);
  EXPECT_EQ(g.code(), ErrorCode::kUnsupported);
  EXPECT_NE(g.message().find("-G/--cudagraph 5"), std::string::npos);

  RecordingBackend capable({true, true});
  EXPECT_TRUE(check_launch_modes(options(1, 4, 5), capable).ok());
  RunOptions blocking = options(1, 1, 5);
  blocking.blocking = 1;
  EXPECT_EQ(check_launch_modes(blocking, capable).code(), ErrorCode::kUsage);
}

TEST(BackendDefaults, LaunchModesAreRefusedWithTheBackendName) {
  RecordingBackend b({});
  const Status s = b.Backend::launch_group(kCall, 2);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
  EXPECT_EQ(s.message(), "the recording backend has no grouped launches");
  EXPECT_EQ(b.Backend::replay().code(), ErrorCode::kUnsupported);
}

}  // namespace
}  // namespace collbench::engine
